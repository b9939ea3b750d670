// The IEO page's calls (issue 23), injected into the one api: projects (with the caller's
// application), the caller's subscription records page by page, the published draw, apply and pay.
// Reads are quiet (the page shows its own error states); apply and pay are quiet too: the page
// shows each refusal translated where it happened.
import { api } from '../../../api/api.ts';
import type { PageOf } from '../../../api/contract/wallet.ts';
import { ieoPaths, type IeoApplication, type IeoApplyBody, type IeoDraw, type IeoProject } from '../../../api/contract/ieo.ts';

export const projectPageSize = 50;
export const recordsPageSize = 20;

export const ieoApi = api.enhanceEndpoints({ addTagTypes: ['IeoProject', 'IeoApplication'] }).injectEndpoints({
  endpoints: (build) => ({
    ieoProjects: build.query<PageOf<IeoProject>, void>({
      query: () => ({ url: ieoPaths.list, params: { pageNo: 1, pageSize: projectPageSize }, quiet: true }),
      providesTags: ['IeoProject'],
    }),
    myIeoApplications: build.infiniteQuery<PageOf<IeoApplication>, void, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, _all, lastPageNo) => (lastPage.records.length > 0 && lastPageNo < lastPage.pages ? lastPageNo + 1 : undefined),
      },
      query: ({ pageParam }) => ({ url: ieoPaths.myApplications, params: { pageNo: pageParam, pageSize: recordsPageSize }, quiet: true }),
      providesTags: ['IeoApplication'],
    }),
    ieoDraw: build.query<IeoDraw, string>({
      query: (id) => ({ url: ieoPaths.draw, params: { id }, quiet: true }),
      providesTags: ['IeoProject'],
    }),
    applyIeo: build.mutation<IeoApplication, IeoApplyBody>({
      query: (body) => ({ url: ieoPaths.apply, method: 'POST', body, quiet: true }),
      invalidatesTags: ['IeoProject', 'IeoApplication'],
    }),
    payIeo: build.mutation<IeoApplication, { id: string }>({
      query: (body) => ({ url: ieoPaths.pay, method: 'POST', body, quiet: true }),
      invalidatesTags: ['IeoProject', 'IeoApplication', 'Balance'],
    }),
  }),
});

export const {
  useIeoProjectsQuery, useMyIeoApplicationsInfiniteQuery, useIeoDrawQuery, useApplyIeoMutation, usePayIeoMutation,
} = ieoApi;
