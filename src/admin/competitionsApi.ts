// The back office's competition calls (issue 23: contract/competitions.ts competitionAdminPaths),
// injected into the one admin API slice: the list, one competition's ranking, prize pool and
// payout, and creating one. Quiet: the screen shows failures in place.
import {
  competitionAdminPaths, type AdminCompetitionDetail, type Competition, type CreateCompetitionBody,
} from '../api/contract/competitions.ts';
import type { PageOf } from '../api/contract/wallet.ts';
import { adminApi } from './api.ts';

export const competitionsPageSize = 20;

export const competitionAdminApi = adminApi.enhanceEndpoints({ addTagTypes: ['Competitions'] }).injectEndpoints({
  endpoints: (build) => ({
    adminCompetitions: build.query<PageOf<Competition>, { pageNo: number }>({
      query: ({ pageNo }) => ({ url: competitionAdminPaths.competitions, params: { pageNo, pageSize: competitionsPageSize }, quiet: true }),
      providesTags: ['Competitions'],
    }),
    adminCompetition: build.query<AdminCompetitionDetail, string>({
      query: (id) => ({ url: competitionAdminPaths.competition.replace(':id', encodeURIComponent(id)), quiet: true }),
      providesTags: ['Competitions'],
    }),
    createCompetition: build.mutation<Competition, CreateCompetitionBody>({
      query: (body) => ({ url: competitionAdminPaths.competitions, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Competitions'],
    }),
  }),
});

export const { useAdminCompetitionsQuery, useAdminCompetitionQuery, useCreateCompetitionMutation } = competitionAdminApi;
