// Sessions and devices calls (issue 11), injected into the one api: the user's live sessions (the
// current one marked), ending one or all the others, and the login history page by page. Every
// call is quiet: the security centre shows a refusal in place.
import { api } from '../../api/api.ts';
import {
  sessionPaths, type LoginHistoryPage, type SessionIdBody, type SessionInfo, type SessionsEnded,
} from '../../api/contract/security.ts';

export const loginHistoryPageSize = 20;

/** The next history page to ask for, or undefined when the last one has been read. */
export const nextHistoryPage = (lastPage: LoginHistoryPage, lastPageNo: number) =>
  lastPage.records.length > 0 && lastPageNo < lastPage.pages ? lastPageNo + 1 : undefined;

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    mySessions: build.query<SessionInfo[], void>({
      query: () => ({ url: sessionPaths.list, quiet: true }),
      providesTags: ['Session'],
    }),
    endSession: build.mutation<null, SessionIdBody>({
      query: (body) => ({ url: sessionPaths.end, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Session'],
    }),
    endOtherSessions: build.mutation<SessionsEnded, void>({
      query: () => ({ url: sessionPaths.endOthers, method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['Session'],
    }),
    loginHistory: build.infiniteQuery<LoginHistoryPage, void, number>({
      infiniteQueryOptions: {
        initialPageParam: 1, getNextPageParam: (lastPage, _all, lastPageNo) => nextHistoryPage(lastPage, lastPageNo),
      },
      query: ({ pageParam }) => ({
        url: sessionPaths.history, params: { pageNo: pageParam, pageSize: loginHistoryPageSize }, quiet: true,
      }),
    }),
  }),
});

export const {
  useMySessionsQuery, useEndSessionMutation, useEndOtherSessionsMutation, useLoginHistoryInfiniteQuery,
} = sessionApi;
