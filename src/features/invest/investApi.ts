// The investment pages' calls (issue 22), injected into the one api: products (arbitrage, quant,
// mining, bonds) and their detail, the caller's orders page by page with their receipts and
// totals, buying by debit or by machines, early redemption, the mining pool and the VIP levels.
// Reads the pages show in place are quiet (no toast on top of the page's own error state); the
// buying calls are quiet too: the form shows each refusal where it belongs, translated.
import { api } from '../../api/api.ts';
import type { ApiError } from '../../api/baseQuery.ts';
import type { PageOf } from '../../api/contract/wallet.ts';
import {
  productPaths, type AccrualReceipt, type DebitBuyBody, type MinerBuyBody, type OrderStat, type OrderStatus, type Product,
  type ProductOrder, type ProductType,
} from '../../api/contract/products.ts';
import { levelPaths, type Levels } from '../../api/contract/levels.ts';

/** Products are few: one page of this many holds a list (the server's page size maximum). */
export const productPageSize = 100;
export const ordersPageSize = 20;
export const receiptsPageSize = 30;
/** The confirmation page looks for a just-made order among this many pages of the newest. */
export const findPagesMax = 3;

/** The mining pool's totals (contract MiningPool). */
export interface MiningPoolView {
  asset: string; machinesRunning: number; hashrateThs: string; outputToday: string; outputTotal: string;
  my?: { machines: number; hashrateThs: string; outputTotal: string };
}

export interface OrdersFilter { type?: ProductType; status?: OrderStatus }

/** The next page to ask for, or undefined when the last one has been read. */
const nextPageOf = (lastPage: PageOf<unknown>, lastPageNo: number) =>
  lastPage.records.length > 0 && lastPageNo < lastPage.pages ? lastPageNo + 1 : undefined;

export const investApi = api.enhanceEndpoints({ addTagTypes: ['Product', 'ProductOrder', 'VipLevel'] }).injectEndpoints({
  endpoints: (build) => ({
    products: build.query<PageOf<Product>, { type: ProductType }>({
      query: ({ type }) => ({ url: productPaths.list, params: { type, pageNo: 1, pageSize: productPageSize }, quiet: true }),
      providesTags: ['Product'],
    }),
    product: build.query<Product, string>({
      query: (id) => ({ url: productPaths.detail, params: { id }, quiet: true }),
      providesTags: ['Product'],
    }),
    myProductOrders: build.infiniteQuery<PageOf<ProductOrder>, OrdersFilter, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage, _all, lastPageNo) => nextPageOf(lastPage, lastPageNo) },
      query: ({ queryArg, pageParam }) => ({
        url: productPaths.myOrders, params: { type: queryArg.type, status: queryArg.status, pageNo: pageParam, pageSize: ordersPageSize }, quiet: true,
      }),
      providesTags: ['ProductOrder'],
    }),
    /**
     * One of the caller's orders by id: looked for in the newest pages (the list is newest first,
     * so an order just made is on page 1). `order` is null when it is not among them.
     */
    findMyOrder: build.query<{ order: ProductOrder | null }, string>({
      async queryFn(id, _api, _extra, baseQuery) {
        for (let pageNo = 1; pageNo <= findPagesMax; pageNo += 1) {
          const answer = await baseQuery({ url: productPaths.myOrders, params: { pageNo, pageSize: ordersPageSize }, quiet: true });
          if (answer.error) return { error: answer.error as ApiError };
          const page = answer.data as PageOf<ProductOrder>;
          const order = page.records.find((row) => row.id === id);
          if (order) return { data: { order } };
          if (pageNo >= page.pages) break;
        }
        return { data: { order: null } };
      },
      providesTags: ['ProductOrder'],
    }),
    orderStat: build.query<OrderStat, { type?: ProductType }>({
      query: ({ type }) => ({ url: productPaths.orderStat, params: { type }, quiet: true }),
      providesTags: ['ProductOrder'],
    }),
    orderReceipts: build.query<PageOf<AccrualReceipt>, string>({
      query: (id) => ({ url: productPaths.receipts, params: { id, pageNo: 1, pageSize: receiptsPageSize }, quiet: true }),
      providesTags: ['ProductOrder'],
    }),
    debitBuy: build.mutation<ProductOrder, DebitBuyBody>({
      query: (body) => ({ url: productPaths.debitBuy, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Product', 'ProductOrder', 'Balance'],
    }),
    minerBuy: build.mutation<ProductOrder, MinerBuyBody>({
      query: (body) => ({ url: productPaths.minerBuy, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Product', 'ProductOrder', 'Balance'],
    }),
    redeemOrder: build.mutation<ProductOrder, { id: string }>({
      query: (body) => ({ url: productPaths.redeem, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Product', 'ProductOrder', 'Balance'],
    }),
    miningPool: build.query<MiningPoolView, { asset?: string }>({
      query: ({ asset }) => ({ url: productPaths.miningPool, params: { asset }, quiet: true }),
      providesTags: ['ProductOrder'],
    }),
    vipLevels: build.query<Levels, void>({
      query: () => ({ url: levelPaths.list, quiet: true }),
      providesTags: ['VipLevel'],
    }),
  }),
});

export const {
  useProductsQuery, useProductQuery, useMyProductOrdersInfiniteQuery, useOrderStatQuery, useFindMyOrderQuery, useOrderReceiptsQuery,
  useDebitBuyMutation, useMinerBuyMutation, useRedeemOrderMutation, useMiningPoolQuery, useVipLevelsQuery,
} = investApi;
