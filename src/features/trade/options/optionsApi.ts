// The options history as an infinite list (20 settled contracts a page, newest first), injected
// beside tradeApi's paged read: the history scrolls page after page, while the open contracts
// (tradeApi secondOrders, status open) are one short page that is refreshed as they settle.
import { api } from '../../../api/api.ts';
import type { PageOf } from '../../../api/contract/wallet.ts';
import { tradePaths, type SecondOrder } from '../../../api/contract/trading.ts';
import type { HistoryQuery } from '../../../components/HistoryFilters.tsx';

export const historyPageSize = 20;
/** Open contracts shown at once: the server's page limit, far above what one person holds open. */
export const openOrdersPageSize = 50;

const nextPageOf = (lastPage: PageOf<unknown>, lastPageNo: number) =>
  lastPage.records.length > 0 && lastPageNo < lastPage.pages ? lastPageNo + 1 : undefined;

export const optionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `filter`: the history filters' optional query fields (components/HistoryFilters.tsx). */
    secondHistory: build.infiniteQuery<PageOf<SecondOrder>, { demo: boolean; filter?: HistoryQuery }, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage, _all, lastPageNo) => nextPageOf(lastPage, lastPageNo) },
      query: ({ queryArg, pageParam }) => ({
        url: tradePaths.secondList,
        params: {
          ...queryArg.filter, pageNo: pageParam, pageSize: historyPageSize, status: 'settled', ...(queryArg.demo ? { demo: true } : {}),
        },
        quiet: true,
      }),
      providesTags: ['SecondOrder'],
    }),
  }),
});

export const { useSecondHistoryInfiniteQuery } = optionsApi;
