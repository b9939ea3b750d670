// The back office's own createApi (never the phone app's): every operator call of the contract
// (contract/admin.ts, wallet.ts walletAdminPaths, withdrawals.ts withdrawalAdminPaths) as RTK Query
// hooks. Writes and the screens' lists are `quiet`: the screen shows a refusal or a failed load in
// place; what no screen shows (who is logged in, the thresholds) is toasted.
import { createApi } from '@reduxjs/toolkit/query/react';
import { adminPaths, type AuditQuery, type AuditRecord, type LedgerCheckResult, type OperatorInfo } from '../api/contract/admin.ts';
import {
  walletAdminPaths, type AdminCurrency, type AdminRechargeRecord, type AdminReviewContext, type CurrencySettingsBody, type NetworkSettingsBody,
  type PageOf,
} from '../api/contract/wallet.ts';
import { liabilityAdminPaths, type LiabilityRoot, type LiabilityRootPage } from '../api/contract/liabilities.ts';
import { withdrawalAdminPaths, type AdminWithdrawal, type WithdrawalSetting } from '../api/contract/withdrawals.ts';
import type { PendingChangeField } from '../api/contract/settingChanges.ts';
import { adminBaseQuery } from './transport.ts';

const withId = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));
const pageSize = 20;

export type WithdrawalDecision =
  | { action: 'approve' } | { action: 'reject'; reason: string } | { action: 'paid'; reference: string } | { action: 'failed'; reason: string };

export const adminApi = createApi({
  reducerPath: 'adminApi',
  baseQuery: adminBaseQuery,
  // 'SettingChanges' (settingChangesApi.ts) is here, like 'Audit', because the screens of every
  // guarded setting invalidate it: a raise they save waits in that list (issue 38).
  tagTypes: ['Recharge', 'Withdrawal', 'Currency', 'Threshold', 'Audit', 'Me', 'Liability', 'ReviewContext', 'SettingChanges'],
  endpoints: (build) => ({
    login: build.mutation<{ token: string }, { account: string; password: string; totpCode: string }>({
      query: (body) => ({ url: adminPaths.login, method: 'POST', body, quiet: true, quietUnauthorized: true }),
    }),
    logout: build.mutation<null, void>({
      query: () => ({ url: adminPaths.logout, method: 'POST', body: {}, quiet: true, quietUnauthorized: true }),
    }),
    me: build.query<OperatorInfo, void>({ query: () => ({ url: adminPaths.me }), providesTags: ['Me'] }),

    recharges: build.query<PageOf<AdminRechargeRecord>, { status: 0 | 1 | -1; pageNo: number }>({
      query: ({ status, pageNo }) => ({ url: walletAdminPaths.recharges, params: { status, pageNo, pageSize }, quiet: true }),
      providesTags: ['Recharge'],
    }),
    /** Answers the request as it is now: still under review after the first of two approvals. */
    approveRecharge: build.mutation<AdminRechargeRecord, string>({
      query: (id) => ({ url: withId(walletAdminPaths.rechargeApprove, id), method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['Recharge', 'Audit', 'ReviewContext'],
    }),
    rejectRecharge: build.mutation<unknown, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: withId(walletAdminPaths.rechargeReject, id), method: 'POST', body: { reason }, quiet: true }),
      invalidatesTags: ['Recharge', 'Audit', 'ReviewContext'],
    }),
    /** The user's context shown beside a deposit or withdrawal under review. */
    reviewContext: build.query<AdminReviewContext, string>({
      query: (userId) => ({ url: withId(walletAdminPaths.reviewContext, userId), quiet: true }),
      providesTags: ['ReviewContext'],
    }),

    withdrawals: build.query<PageOf<AdminWithdrawal>, { status: 0 | 2 | -1 | -2; pageNo: number }>({
      query: ({ status, pageNo }) => ({ url: withdrawalAdminPaths.list, params: { status, pageNo, pageSize }, quiet: true }),
      providesTags: ['Withdrawal'],
    }),
    decideWithdrawal: build.mutation<AdminWithdrawal, { id: string; decision: WithdrawalDecision }>({
      query: ({ id, decision: { action, ...body } }) => ({
        url: withId(withdrawalAdminPaths[action], id), method: 'POST', body, quiet: true,
      }),
      invalidatesTags: ['Withdrawal', 'Audit', 'ReviewContext'],
    }),

    currencies: build.query<AdminCurrency[], void>({ query: () => ({ url: walletAdminPaths.currencies, quiet: true }), providesTags: ['Currency'] }),
    updateCurrency: build.mutation<AdminCurrency, { code: string; body: CurrencySettingsBody }>({
      query: ({ code, body }) => ({ url: walletAdminPaths.currency.replace(':code', code), method: 'POST', body, quiet: true }),
      invalidatesTags: ['Currency', 'Audit'],
    }),
    updateNetwork: build.mutation<unknown, { code: string; network: string; body: NetworkSettingsBody }>({
      query: ({ code, network, body }) => ({
        url: walletAdminPaths.network.replace(':code', code).replace(':network', network), method: 'POST', body, quiet: true,
      }),
      invalidatesTags: ['Currency', 'Audit'],
    }),
    thresholds: build.query<WithdrawalSetting[], void>({ query: () => ({ url: withdrawalAdminPaths.settings }), providesTags: ['Threshold'] }),
    /** Answers the threshold as it is now, with `pendingChange` when a raise waits for a second operator. */
    setThreshold: build.mutation<WithdrawalSetting & PendingChangeField, { currency: string; dualApprovalAbove: string }>({
      query: ({ currency, dualApprovalAbove }) => ({
        url: withdrawalAdminPaths.setting.replace(':currency', currency), method: 'POST', body: { dualApprovalAbove }, quiet: true,
      }),
      invalidatesTags: ['Threshold', 'Audit', 'SettingChanges'],
    }),

    ledgerCheck: build.query<LedgerCheckResult, number>({
      // The argument is the run number: "Run check" asks for a fresh run, never a cached answer.
      query: () => ({ url: adminPaths.ledgerCheck, quiet: true }),
      keepUnusedDataFor: 0,
    }),
    liabilityRoots: build.query<LiabilityRootPage, number>({
      query: (pageNo) => ({ url: liabilityAdminPaths.list, params: { pageNo, pageSize }, quiet: true }),
      providesTags: ['Liability'],
    }),
    publishLiabilities: build.mutation<LiabilityRoot, void>({
      query: () => ({ url: liabilityAdminPaths.publish, method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['Liability', 'Audit'],
    }),
    audit: build.query<PageOf<AuditRecord>, AuditQuery>({
      query: (params) => ({ url: adminPaths.audit, params: { ...params, pageSize: params.pageSize ?? pageSize }, quiet: true }),
      providesTags: ['Audit'],
    }),
  }),
});

export const {
  useLoginMutation, useLogoutMutation, useMeQuery, useRechargesQuery, useApproveRechargeMutation, useRejectRechargeMutation, useReviewContextQuery,
  useWithdrawalsQuery, useDecideWithdrawalMutation, useCurrenciesQuery, useUpdateCurrencyMutation, useUpdateNetworkMutation,
  useThresholdsQuery, useSetThresholdMutation, useLedgerCheckQuery, useAuditQuery, useLiabilityRootsQuery, usePublishLiabilitiesMutation,
} = adminApi;
