// The back office's team calls (issue 23: contract/team.ts teamAdminPaths), injected into the one
// admin API slice: the commission rate of each team level (read, saved by an admin) and the
// statement lines the daily team-commission job wrote. Quiet: the screen shows failures in place.
import { teamAdminPaths, type AdminTeamCommission, type TeamRate, type UpdateTeamRatesBody } from '../api/contract/team.ts';
import type { PageOf } from '../api/contract/wallet.ts';
import { adminApi } from './api.ts';

export const commissionsPageSize = 20;

export const teamAdminApi = adminApi.enhanceEndpoints({ addTagTypes: ['TeamRates', 'TeamCommissions'] }).injectEndpoints({
  endpoints: (build) => ({
    teamRates: build.query<TeamRate[], void>({
      query: () => ({ url: teamAdminPaths.rates, quiet: true }),
      providesTags: ['TeamRates'],
    }),
    /** Answers the rates in force: a raise waits for a second operator, unchanged here (issue 38). */
    updateTeamRates: build.mutation<TeamRate[], UpdateTeamRatesBody>({
      query: (body) => ({ url: teamAdminPaths.rates, method: 'POST', body, quiet: true }),
      invalidatesTags: ['TeamRates', 'Audit', 'SettingChanges'],
    }),
    teamCommissions: build.query<PageOf<AdminTeamCommission>, { pageNo: number; day?: string; userId?: string }>({
      query: ({ pageNo, day, userId }) => ({
        url: teamAdminPaths.commissions, params: { pageNo, pageSize: commissionsPageSize, day: day || undefined, userId: userId || undefined }, quiet: true,
      }),
      providesTags: ['TeamCommissions'],
    }),
  }),
});

export const { useTeamRatesQuery, useUpdateTeamRatesMutation, useTeamCommissionsQuery } = teamAdminApi;
