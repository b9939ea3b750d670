// The back office's trading calls (contract/trading.ts tradeAdminPaths), injected into the one
// admin API slice: the settings an admin edits and the trades an operator reads. Writes and the
// screens' lists are `quiet`: the screen shows a refusal or a failed load in place.
import {
  tradeAdminPaths, type Position, type SecondContractSet, type SecondOrder, type SecondSetBody, type SwapRecord, type SwapSettingsBody,
  type SymbolSettingsBody, type SymbolTradeSettings,
} from '../api/contract/trading.ts';
import type { PageOf } from '../api/contract/wallet.ts';
import { adminApi } from './api.ts';

/** A symbol's contract settings as the back office reads them. */
export type AdminSymbolSettings = SymbolTradeSettings & {
  /** False: quoted in a currency contracts cannot settle in (USDJPY…): it cannot be enabled. */
  contractCapable: boolean;
  /** Whether real (not demo) trading may use this symbol's simulated prices (issue 18). */
  simulatedFeedRealTrading: boolean;
  updateTime: number;
};
export type AdminSecondSet = SecondContractSet & { contractCapable: boolean; updateTime: number };
export type AdminSwapSettings = SwapSettingsBody & { updateTime: number };

/** Who a listed trade belongs to (the lists are across users). */
export interface TradeOwner { userId: string; account: string }
export type AdminPosition = Position & TradeOwner;
export type AdminSecondOrder = SecondOrder & TradeOwner;
export type AdminSwap = SwapRecord & TradeOwner;

export interface TradeListArgs {
  pageNo: number;
  userId?: string;
  symbol?: string;
  status?: string;
  demo?: boolean;
}

const pageSize = 20;
const withSymbol = (path: string, symbol: string) => path.replace(':symbol', encodeURIComponent(symbol));
const listParams = ({ pageNo, userId, symbol, status, demo }: TradeListArgs) => ({
  pageNo, pageSize, userId, symbol, status, demo: demo ? true : undefined,
});

export const tradeAdminApi = adminApi.enhanceEndpoints({ addTagTypes: ['TradeSymbols', 'TradeSecondSets', 'TradeSwap'] }).injectEndpoints({
  endpoints: (build) => ({
    tradeSymbols: build.query<AdminSymbolSettings[], void>({
      query: () => ({ url: tradeAdminPaths.symbolSettings, quiet: true }), providesTags: ['TradeSymbols'],
    }),
    updateTradeSymbol: build.mutation<AdminSymbolSettings, { symbol: string; body: SymbolSettingsBody }>({
      query: ({ symbol, body }) => ({ url: withSymbol(tradeAdminPaths.symbolSetting, symbol), method: 'POST', body, quiet: true }),
      invalidatesTags: ['TradeSymbols', 'Audit'],
    }),
    secondSets: build.query<AdminSecondSet[], void>({
      query: () => ({ url: tradeAdminPaths.secondSets, quiet: true }), providesTags: ['TradeSecondSets'],
    }),
    updateSecondSet: build.mutation<AdminSecondSet, { symbol: string; body: SecondSetBody }>({
      query: ({ symbol, body }) => ({ url: withSymbol(tradeAdminPaths.secondSet, symbol), method: 'POST', body, quiet: true }),
      invalidatesTags: ['TradeSecondSets', 'Audit'],
    }),
    swapSettings: build.query<AdminSwapSettings, void>({
      query: () => ({ url: tradeAdminPaths.swapSettings, quiet: true }), providesTags: ['TradeSwap'],
    }),
    updateSwapSettings: build.mutation<AdminSwapSettings, SwapSettingsBody>({
      query: (body) => ({ url: tradeAdminPaths.swapSettings, method: 'POST', body, quiet: true }),
      invalidatesTags: ['TradeSwap', 'Audit'],
    }),
    adminPositions: build.query<PageOf<AdminPosition>, TradeListArgs>({
      query: (args) => ({ url: tradeAdminPaths.positions, params: listParams(args), quiet: true }),
    }),
    adminSecondOrders: build.query<PageOf<AdminSecondOrder>, TradeListArgs>({
      query: (args) => ({ url: tradeAdminPaths.secondOrders, params: listParams(args), quiet: true }),
    }),
    adminSwaps: build.query<PageOf<AdminSwap>, TradeListArgs>({
      query: (args) => ({ url: tradeAdminPaths.swaps, params: listParams(args), quiet: true }),
    }),
  }),
});

export const {
  useTradeSymbolsQuery, useUpdateTradeSymbolMutation, useSecondSetsQuery, useUpdateSecondSetMutation, useSwapSettingsQuery,
  useUpdateSwapSettingsMutation, useAdminPositionsQuery, useAdminSecondOrdersQuery, useAdminSwapsQuery,
} = tradeAdminApi;
