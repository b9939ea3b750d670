// The reads of the records and result pages, injected beside walletApi's: the user's deposits
// and withdrawals as infinite lists (page after page, 20 a page), and one record found by id
// among the newest. All are quiet: the pages show a failure in place (with a retry), and a poll
// every 15 s must not toast the same failure again and again (api/baseQuery.ts).
import { api } from '../../api/api.ts';
import type { ApiError } from '../../api/baseQuery.ts';
import type { PageOf, RechargeRecord } from '../../api/contract/wallet.ts';
import { walletPaths } from '../../api/contract/wallet.ts';
import type { Withdrawal } from '../../api/contract/withdrawals.ts';
import { withdrawalPaths } from '../../api/contract/withdrawals.ts';
import type { RecordKind } from './recordStatus.tsx';

export const recordsPageSize = 20;
/** The result page looks for a just-made request among this many pages of the newest records. */
export const findPagesMax = 3;

export interface RecordListFilter { status?: number }
export type AnyRecord = RechargeRecord | Withdrawal;
export interface FoundRecord { kind: RecordKind; record: AnyRecord | null }

const listPath = (kind: RecordKind) => (kind === 'deposit' ? walletPaths.rechargeListMy : withdrawalPaths.listMy);
const tagOf = (kind: RecordKind) => (kind === 'deposit' ? 'Recharge' as const : 'Withdrawal' as const);

/** The next page to ask for, or undefined when the last one has been read. */
export const nextPageOf = (lastPage: PageOf<unknown>, lastPageNo: number) =>
  lastPage.records.length > 0 && lastPageNo < lastPage.pages ? lastPageNo + 1 : undefined;

export const recordsApi = api.injectEndpoints({
  endpoints: (build) => ({
    myRecharges: build.infiniteQuery<PageOf<RechargeRecord>, RecordListFilter, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage, _all, lastPageNo) => nextPageOf(lastPage, lastPageNo) },
      query: ({ queryArg, pageParam }) => ({
        url: walletPaths.rechargeListMy, params: { pageNo: pageParam, pageSize: recordsPageSize, status: queryArg.status }, quiet: true,
      }),
      providesTags: ['Recharge'],
    }),
    myWithdrawals: build.infiniteQuery<PageOf<Withdrawal>, RecordListFilter, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage, _all, lastPageNo) => nextPageOf(lastPage, lastPageNo) },
      query: ({ queryArg, pageParam }) => ({
        url: withdrawalPaths.listMy, params: { pageNo: pageParam, pageSize: recordsPageSize, status: queryArg.status }, quiet: true,
      }),
      providesTags: ['Withdrawal'],
    }),
    /**
     * One of the user's records by id: looked for in the newest pages (the list is newest first,
     * so a request just made is on page 1; a few more pages cover a busy minute). `record` is null
     * when it is not among them.
     */
    findMyRecord: build.query<FoundRecord, { kind: RecordKind; id: string }>({
      async queryFn({ kind, id }, _api, _extra, baseQuery) {
        for (let pageNo = 1; pageNo <= findPagesMax; pageNo += 1) {
          const answer = await baseQuery({ url: listPath(kind), params: { pageNo, pageSize: recordsPageSize }, quiet: true });
          if (answer.error) return { error: answer.error as ApiError };
          const page = answer.data as PageOf<AnyRecord>;
          const record = page.records.find((row) => row.id === id);
          if (record) return { data: { kind, record } };
          if (pageNo >= page.pages) break;
        }
        return { data: { kind, record: null } };
      },
      providesTags: (_result, _error, { kind }) => [tagOf(kind)],
    }),
  }),
});

export const { useMyRechargesInfiniteQuery, useMyWithdrawalsInfiniteQuery, useFindMyRecordQuery } = recordsApi;
