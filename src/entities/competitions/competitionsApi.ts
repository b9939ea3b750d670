// The competition pages' calls (issue 23), injected into the one api: the list (public; with a
// session it says which ones the caller joined), the detail with the live ranking, the caller's
// entries, join (one clientOrderId per confirmation, so a retry after a network failure answers
// the first entry) and exit. Reads are quiet (the pages show their own error state).
import { api } from '../../api/api.ts';
import type { PageOf } from '../../api/contract/wallet.ts';
import {
  competitionPaths, type Competition, type CompetitionDetail, type CompetitionEntry,
} from '../../api/contract/competitions.ts';

export const competitionsApi = api.enhanceEndpoints({ addTagTypes: ['Competition'] }).injectEndpoints({
  endpoints: (build) => ({
    competitions: build.query<PageOf<Competition>, { status: 0 | 1 | -2 }>({
      query: ({ status }) => ({ url: competitionPaths.list, params: { status, pageNo: 1, pageSize: 50 }, quiet: true }),
      providesTags: ['Competition'],
    }),
    competition: build.query<CompetitionDetail, string>({
      query: (id) => ({ url: competitionPaths.detail, params: { id }, quiet: true }),
      providesTags: ['Competition'],
    }),
    myCompetitionEntries: build.query<PageOf<CompetitionEntry>, void>({
      query: () => ({ url: competitionPaths.mine, params: { pageNo: 1, pageSize: 50 }, quiet: true }),
      providesTags: ['Competition'],
    }),
    joinCompetition: build.mutation<CompetitionEntry, { id: string; clientOrderId: string }>({
      query: (body) => ({ url: competitionPaths.join, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Competition'],
    }),
    exitCompetition: build.mutation<CompetitionEntry, { id: string }>({
      query: (body) => ({ url: competitionPaths.exit, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Competition'],
    }),
  }),
});

export const {
  useCompetitionsQuery, useCompetitionQuery, useMyCompetitionEntriesQuery, useJoinCompetitionMutation, useExitCompetitionMutation,
} = competitionsApi;

export function newJoinOrderId(): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `cmp-${random}`;
}
