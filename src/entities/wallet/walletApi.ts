// Endpoints of the wallet (issue 9): currencies, balances and assets, the account ledger, deposit
// addresses, deposits, destinations, the withdrawal password and withdrawals, injected into the
// one api (the records' paged lists are in recordsApi.ts). Every mutation is quiet: its form shows the refusal in place (components/form).
// A money movement invalidates the balances and the records it shows up in.
import { api } from '../../api/api.ts';
import type {
  BalanceLogEntry, BalanceLogEvent, CurrencyBalance, CurrencyInfo, CurrencyRate, DepositAddress, PageOf, RechargeApplyBody,
  RechargeRecord, UserAssets,
} from '../../api/contract/wallet.ts';
import { walletPaths } from '../../api/contract/wallet.ts';
import type {
  AddDestinationBody, ChangeWithdrawPasswordBody, Destination, EditDestinationBody, SetWithdrawPasswordBody, Withdrawal,
  WithdrawalApplyBody,
} from '../../api/contract/withdrawals.ts';
import { withdrawalPaths } from '../../api/contract/withdrawals.ts';

export interface PageArgs { pageNo: number; pageSize: number }
export interface BalanceLogArgs extends PageArgs { type?: string; currency?: string; startTime?: number; endTime?: number }

export const walletApi = api.injectEndpoints({
  endpoints: (build) => ({
    currencyList: build.query<CurrencyInfo[], void>({
      query: () => ({ url: walletPaths.currencyList }),
      providesTags: ['Setting'],
    }),
    rateByCurrency: build.query<CurrencyRate, string>({
      query: (currency) => ({ url: walletPaths.rateByCurrency, params: { currency }, quiet: true }),
    }),
    userBalance: build.query<CurrencyBalance[], void>({
      query: () => ({ url: walletPaths.userBalance }),
      providesTags: ['Balance'],
    }),
    userAssets: build.query<UserAssets, void>({
      query: () => ({ url: walletPaths.userAssets }),
      providesTags: ['Balance'],
    }),
    balanceLog: build.query<PageOf<BalanceLogEntry>, BalanceLogArgs>({
      query: (params) => ({ url: walletPaths.balanceLog, params: { ...params } }),
      providesTags: ['Balance'],
    }),
    /** The same ledger, one record per business event (issue 19): the ledger page's default view. */
    balanceEvents: build.query<PageOf<BalanceLogEvent>, BalanceLogArgs>({
      query: (params) => ({ url: walletPaths.balanceEvents, params: { ...params } }),
      providesTags: ['Balance'],
    }),
    depositAddress: build.query<DepositAddress, { currency: string; network: string }>({
      query: (params) => ({ url: walletPaths.depositAddress, params, quiet: true }),
      providesTags: ['Setting'],
    }),
    applyRecharge: build.mutation<RechargeRecord, RechargeApplyBody>({
      query: (body) => ({ url: walletPaths.rechargeApply, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Recharge'],
    }),
    destinations: build.query<Destination[], void>({
      query: () => ({ url: withdrawalPaths.listDestinations }),
      providesTags: ['Destination'],
    }),
    addDestination: build.mutation<Destination, AddDestinationBody>({
      query: (body) => ({ url: withdrawalPaths.addDestination, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Destination'],
    }),
    editDestination: build.mutation<Destination, EditDestinationBody>({
      query: (body) => ({ url: withdrawalPaths.editDestination, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Destination'],
    }),
    setWithdrawPassword: build.mutation<null, SetWithdrawPasswordBody>({
      query: (body) => ({ url: withdrawalPaths.setWithdrawPassword, method: 'POST', body, quiet: true }),
      invalidatesTags: ['User'],
    }),
    changeWithdrawPassword: build.mutation<null, ChangeWithdrawPasswordBody>({
      query: (body) => ({ url: withdrawalPaths.changeWithdrawPassword, method: 'POST', body, quiet: true }),
    }),
    applyWithdrawal: build.mutation<Withdrawal, WithdrawalApplyBody>({
      query: (body) => ({ url: withdrawalPaths.apply, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Withdrawal', 'Balance'],
    }),
  }),
});

export const {
  useCurrencyListQuery, useRateByCurrencyQuery, useUserBalanceQuery, useUserAssetsQuery, useLazyBalanceLogQuery, useLazyBalanceEventsQuery,
  useDepositAddressQuery, useApplyRechargeMutation, useDestinationsQuery, useAddDestinationMutation,
  useEditDestinationMutation, useSetWithdrawPasswordMutation, useChangeWithdrawPasswordMutation, useApplyWithdrawalMutation,
} = walletApi;
