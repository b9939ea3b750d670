// The user's swap records as an infinite list (20 a page, newest first), injected beside
// tradeApi's paged read for the records page's infinite scroll. Quiet: the page shows a failure in place.
import { api } from '../../api/api.ts';
import type { PageOf } from '../../api/contract/wallet.ts';
import { tradePaths, type SwapRecord } from '../../api/contract/trading.ts';

export const swapRecordsPageSize = 20;

export const swapApi = api.injectEndpoints({
  endpoints: (build) => ({
    swapRecordPages: build.infiniteQuery<PageOf<SwapRecord>, void, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, _all, lastPageNo) => (lastPage.records.length > 0 && lastPageNo < lastPage.pages ? lastPageNo + 1 : undefined),
      },
      query: ({ pageParam }) => ({ url: tradePaths.swapList, params: { pageNo: pageParam, pageSize: swapRecordsPageSize }, quiet: true }),
      providesTags: ['Swap'],
    }),
  }),
});

export const { useSwapRecordPagesInfiniteQuery } = swapApi;
