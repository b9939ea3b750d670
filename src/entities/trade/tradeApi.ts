// Endpoints of trading (issue 10), injected into the one api: contract settings and positions,
// second contracts, flash swap and demo funds. Mutations are quiet: their forms and sheets show the
// refusal in place. A trade invalidates the balances it moves; the user's realtime channel
// (useUserEvents.ts) invalidates the same tags when a position or a contract settles by itself.
import { api } from '../../api/api.ts';
import type { PageOf } from '../../api/contract/wallet.ts';
import {
  closePositionPath, tradePaths, type CreatePositionBody, type DemoAccount, type Position, type PositionsSummary,
  type SecondBuyBody, type SecondContractSet, type SecondHead, type SecondOrder, type SwapCurrencies, type SwapQuote,
  type SwapQuoteQuery, type SwapRecord, type SymbolTradeSettings, type TickRef, type UpdateStopLossBody,
} from '../../api/contract/trading.ts';
import type { HistoryQuery } from '../../components/HistoryFilters.tsx';

export interface DemoArg { demo?: boolean }
export interface TradePageArgs extends DemoArg { pageNo: number; pageSize: number }
/** Only `demo: true` travels: a spec client's request has no such field. */
const demoParam = (demo: boolean | undefined) => (demo ? { demo: true } : {});

export const tradeApi = api.injectEndpoints({
  endpoints: (build) => ({
    tradeSettings: build.query<SymbolTradeSettings[], void>({
      query: () => ({ url: tradePaths.settings }),
      providesTags: ['TradeSetting'],
    }),
    ticks: build.query<TickRef[], { symbol: string; from: number; to: number }>({
      query: (params) => ({ url: tradePaths.ticks, params, quiet: true }),
    }),
    /** The history filters' optional fields (components/HistoryFilters.tsx) travel as they are. */
    positions: build.query<PageOf<Position>, TradePageArgs & HistoryQuery & { status?: 'running' | 'closed' }>({
      query: ({ demo, ...params }) => ({ url: tradePaths.listPositions, params: { ...params, ...demoParam(demo) } }),
      providesTags: ['Position'],
    }),
    position: build.query<Position, { id: string } & DemoArg>({
      query: ({ id, demo }) => ({ url: tradePaths.getPosition, params: { id, ...demoParam(demo) }, quiet: true }),
      providesTags: ['Position'],
    }),
    positionsSummary: build.query<PositionsSummary, DemoArg>({
      query: ({ demo }) => ({ url: tradePaths.summary, params: demoParam(demo) }),
      providesTags: ['Position', 'Balance'],
    }),
    createPosition: build.mutation<Position, CreatePositionBody>({
      query: (body) => ({ url: tradePaths.createPosition, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Position', 'Balance'],
    }),
    updateStopLoss: build.mutation<Position, UpdateStopLossBody>({
      query: (body) => ({ url: tradePaths.updateStopLoss, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Position'],
    }),
    closePosition: build.mutation<Position, { id: string } & DemoArg>({
      // The body is empty (spec §7); demo positions say so in the query.
      query: ({ id, demo }) => ({ url: closePositionPath(id), method: 'POST', params: demoParam(demo), quiet: true }),
      invalidatesTags: ['Position', 'Balance'],
    }),
    secondSets: build.query<SecondContractSet[], void>({
      query: () => ({ url: tradePaths.secondSets }),
      providesTags: ['TradeSetting'],
    }),
    secondHead: build.query<SecondHead, DemoArg>({
      query: ({ demo }) => ({ url: tradePaths.secondHead, params: demoParam(demo) }),
      providesTags: ['SecondOrder', 'Balance'],
    }),
    secondOrders: build.query<PageOf<SecondOrder>, TradePageArgs & { status?: 'open' | 'settled' }>({
      query: ({ demo, ...params }) => ({ url: tradePaths.secondList, params: { ...params, ...demoParam(demo) } }),
      providesTags: ['SecondOrder'],
    }),
    buySecond: build.mutation<SecondOrder, SecondBuyBody>({
      query: (body) => ({ url: tradePaths.secondBuy, method: 'POST', body, quiet: true }),
      invalidatesTags: ['SecondOrder', 'Balance'],
    }),
    swapCurrencies: build.query<SwapCurrencies, void>({
      query: () => ({ url: tradePaths.swapCurrencies }),
      providesTags: ['TradeSetting'],
    }),
    swapQuote: build.mutation<SwapQuote, SwapQuoteQuery>({
      // A GET, but every call makes a new quote: a mutation, so nothing caches it.
      query: (params) => ({ url: tradePaths.swapQuote, params, quiet: true }),
    }),
    swap: build.mutation<SwapRecord, { quoteId: string }>({
      query: (body) => ({ url: tradePaths.swap, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Swap', 'Balance'],
    }),
    swapRecords: build.query<PageOf<SwapRecord>, { pageNo: number; pageSize: number }>({
      query: (params) => ({ url: tradePaths.swapList, params }),
      providesTags: ['Swap'],
    }),
    demoAccount: build.query<DemoAccount, void>({
      query: () => ({ url: tradePaths.demoAccount }),
      providesTags: ['Demo', 'Balance'],
    }),
    resetDemo: build.mutation<DemoAccount, void>({
      query: () => ({ url: tradePaths.demoReset, method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['Demo', 'Balance', 'Position', 'SecondOrder'],
    }),
  }),
});

export const {
  useTradeSettingsQuery, useTicksQuery, usePositionsQuery, usePositionQuery, usePositionsSummaryQuery,
  useCreatePositionMutation, useUpdateStopLossMutation, useClosePositionMutation, useSecondSetsQuery, useSecondHeadQuery,
  useSecondOrdersQuery, useBuySecondMutation, useSwapCurrenciesQuery, useSwapQuoteMutation, useSwapMutation,
  useSwapRecordsQuery, useDemoAccountQuery, useResetDemoMutation,
} = tradeApi;
