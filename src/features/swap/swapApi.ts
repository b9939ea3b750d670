// The user's swap records as an infinite list (20 a page, newest first), injected beside
// tradeApi's paged read for the records page's infinite scroll. Quiet: the page shows a failure in place.
import { api } from '../../api/api.ts';
import type { PageOf } from '../../api/contract/wallet.ts';
import { tradePaths, type SwapRecord } from '../../api/contract/trading.ts';
import type { HistoryQuery } from '../../components/HistoryFilters.tsx';

export const swapRecordsPageSize = 20;

export const swapApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The argument: the records' filters as optional query fields (components/HistoryFilters.tsx), {} for all. */
    swapRecordPages: build.infiniteQuery<PageOf<SwapRecord>, HistoryQuery, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, _all, lastPageNo) => (lastPage.records.length > 0 && lastPageNo < lastPage.pages ? lastPageNo + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: tradePaths.swapList, params: { ...queryArg, pageNo: pageParam, pageSize: swapRecordsPageSize }, quiet: true,
      }),
      providesTags: ['Swap'],
    }),
  }),
});

export const { useSwapRecordPagesInfiniteQuery } = swapApi;
