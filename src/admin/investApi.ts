// The back office's investment calls (issue 22: contract/products.ts productAdminPaths,
// loans.ts loanAdminPaths, levels.ts levelAdminPaths), injected into the one admin API slice:
// products of the four kinds (list, create, edit), their reserve fundings (done at once or waiting
// for a second operator), the orders of a product (freeze with a reason the user reads, unfreeze),
// the mining reward figure, the scheduled jobs (run now, the runs), loan applications with the
// user's context (approve, reject with a reason), loan settings and VIP levels. Writes and the
// screens' lists are `quiet`: the screen shows a refusal or a failed load in place. The shapes the
// contract names only in words (an admin product, an admin loan and its user context) are read
// leniently here, in one place. The signature image and the agreement PDF are not here: they are
// read as blobs with the operator's token (loanSignatureUrl, loanAgreementUrl + transport.ts fetchProof).
import { apiPrefix } from '../api/contract/paths.ts';
import {
  productAdminPaths, type CreateProductBody, type JobName, type JobRun, type OrderStatus, type Product, type ProductOrder, type ProductType,
  type ReserveFunding,
} from '../api/contract/products.ts';
import { loanAdminPaths, type AdminLoan, type LoanSetting, type LoanStatus } from '../api/contract/loans.ts';
import { levelAdminPaths, type VipLevel } from '../api/contract/levels.ts';
import type { PageOf } from '../api/contract/wallet.ts';
import type { PendingChangeField } from '../api/contract/settingChanges.ts';
import { adminApi } from './api.ts';

/** A product as the back office reads it: the public fields plus what only operators see. */
export type AdminProduct = Product & {
  names?: Record<string, string>;
  /** Principal held for the product's buyers. */
  principal?: string;
  /** Returns paid so far. */
  paid?: string;
  createdAt?: number;
};

export type ProductStatusValue = Product['status'];

export interface ProductListArgs {
  pageNo: number;
  type?: ProductType;
  status?: ProductStatusValue;
}

/** A product order with whose it is (the list is across users). */
export type AdminProductOrder = ProductOrder & { userId: string; account: string };

export interface OrderListArgs {
  pageNo: number;
  productId?: string;
  status?: OrderStatus;
  userId?: string;
}

export interface ProductChange {
  status?: 'draft' | 'open' | 'closed';
  names?: Record<string, string>;
  minLevel?: number;
  maxAmount?: string;
  perUserMax?: string;
  totalCap?: string;
}

export interface MiningRewardRecord {
  id: string;
  asset: string;
  day: string;
  rewardPerThsDay: string;
  electricityPerKwh: string;
  source: string;
  createdAt: number;
}

export interface MiningRewardInput {
  asset: string;
  day: string;
  rewardPerThsDay: string;
  electricityPerKwh: string;
  source: string;
}

export type { AdminLoan };

/** One balance of the user beside a loan under review, per asset and account kind (spot, loan, collateral...). */
export interface ContextBalance {
  currency: string;
  /** The ledger account kind, when the server names it. */
  kind?: string;
  amount: string;
}

/** An earlier loan of the same user, as the review lists it. */
export type EarlierLoan = Pick<AdminLoan, 'id' | 'type' | 'asset' | 'amount' | 'status' | 'createdAt'> & { rejectReason?: string };

/** What an operator sees about the borrower beside a loan application. */
export interface LoanUserContext {
  email: string;
  kycLevel?: number;
  vipLevel?: number;
  balances: ContextBalance[];
  /** The user's other loans, newest first. */
  earlierLoans: EarlierLoan[];
  /** The terms as signed. */
  terms?: string;
}

export type AdminLoanDetail = AdminLoan & { context: LoanUserContext };

export interface LoanListArgs {
  pageNo: number;
  status?: LoanStatus;
  userId?: string;
}

export interface LoanSettingChange {
  dailyRate?: string;
  penaltyRate?: string;
  minDays?: number;
  maxDays?: number;
  minAmount?: string;
  maxAmount?: string;
  initialLtv?: string;
  marginCallLtv?: string;
  liquidationLtv?: string;
  liquidationFee?: string;
  enabled?: boolean;
}

export interface VipLevelChange {
  name?: string;
  minAssets?: string;
  creditLimit?: string;
}

const pageSize = 20;
const withId = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));

/** Where a loan's signature image is read (with the operator's token). */
export const loanSignatureUrl = (id: string) => `${apiPrefix}${withId(loanAdminPaths.signature, id)}`;
/** Where a loan's signed agreement (PDF) is read (with the operator's token). */
export const loanAgreementUrl = (id: string) => `${apiPrefix}${withId(loanAdminPaths.agreementPdf, id)}`;

type Loose = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : '');
const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const object = (value: unknown): Loose | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? value as Loose : undefined);

function toBalances(value: unknown): ContextBalance[] {
  if (Array.isArray(value)) {
    return value.map((row) => object(row)).filter((row): row is Loose => !!row).map((row) => ({
      currency: text(row.currency ?? row.asset), kind: text(row.kind) || undefined, amount: text(row.amount ?? row.available ?? row.balance),
    })).filter((row) => row.currency);
  }
  // { USDT: "12.5" }
  const map = object(value);
  if (!map) return [];
  return Object.entries(map).map(([currency, row]) => ({ currency, amount: text(object(row)?.amount ?? object(row)?.available ?? row) }));
}

/**
 * A loan under review as the server answers it (contract AdminLoan): the loan with, beside it (or
 * inside `context` / `user`), the borrower's e-mail, KYC and VIP levels, balances, earlier loans and
 * the terms as signed.
 */
export function toAdminLoanDetail(raw: Loose): AdminLoanDetail {
  const context = object(raw.context) ?? object(raw.user) ?? {};
  const pick = (key: string) => raw[key] ?? context[key];
  const loans = pick('earlierLoans') ?? pick('loans');
  const email = text(pick('userEmail') ?? pick('email') ?? pick('account'));
  return {
    ...(raw as unknown as AdminLoan),
    userId: text(raw.userId ?? context.userId),
    userEmail: email || undefined,
    context: {
      email,
      kycLevel: int(pick('kycLevel')),
      vipLevel: int(pick('vipLevel')),
      balances: toBalances(pick('balances')),
      earlierLoans: Array.isArray(loans) ? (loans as EarlierLoan[]).filter((loan) => object(loan) && text(loan.id) !== text(raw.id)) : [],
      terms: text(pick('terms')) || undefined,
    },
  };
}

/** A list the server may answer as a page or as a bare array (fundings, rewards, runs, settings, levels). */
const records = <T>(answer: unknown): T[] => (Array.isArray(answer) ? answer as T[] : (object(answer)?.records as T[] | undefined) ?? []);

export const investAdminApi = adminApi.enhanceEndpoints({
  addTagTypes: ['InvestProducts', 'InvestFundings', 'InvestOrders', 'MiningRewards', 'JobRuns', 'Loans', 'LoanSettings', 'VipLevels'],
}).injectEndpoints({
  endpoints: (build) => ({
    adminProducts: build.query<PageOf<AdminProduct>, ProductListArgs>({
      // Filtered by kind and status on the server, so every page of a filter is full.
      query: ({ pageNo, type, status }) => ({ url: productAdminPaths.products, params: { pageNo, pageSize, type, status }, quiet: true }),
      providesTags: ['InvestProducts'],
    }),
    /**
     * A product is created as a draft; asked on sale, the answer (still the draft) carries the
     * `pendingChange` a second operator approves (issue 38), as does an update that raises a limit.
     */
    createProduct: build.mutation<AdminProduct & PendingChangeField, CreateProductBody>({
      query: (body) => ({ url: productAdminPaths.products, method: 'POST', body, quiet: true }),
      invalidatesTags: ['InvestProducts', 'Audit', 'SettingChanges'],
    }),
    updateProduct: build.mutation<AdminProduct & PendingChangeField, { id: string; body: ProductChange }>({
      query: ({ id, body }) => ({ url: withId(productAdminPaths.product, id), method: 'POST', body, quiet: true }),
      invalidatesTags: ['InvestProducts', 'Audit', 'SettingChanges'],
    }),
    /** Answers the funding as it is now: done, or pending a second operator above the threshold. */
    fundReserve: build.mutation<ReserveFunding, { id: string; amount: string }>({
      query: ({ id, amount }) => ({ url: withId(productAdminPaths.reserve, id), method: 'POST', body: { amount }, quiet: true }),
      invalidatesTags: ['InvestProducts', 'InvestFundings', 'Audit'],
    }),
    reserveFundings: build.query<ReserveFunding[], void>({
      query: () => ({ url: productAdminPaths.fundings, quiet: true }),
      transformResponse: (answer: unknown) => records<ReserveFunding>(answer),
      providesTags: ['InvestFundings'],
    }),
    approveFunding: build.mutation<ReserveFunding, string>({
      query: (fundingId) => ({
        url: productAdminPaths.approveFunding.replace(':fundingId', encodeURIComponent(fundingId)), method: 'POST', body: {}, quiet: true,
      }),
      invalidatesTags: ['InvestProducts', 'InvestFundings', 'Audit'],
    }),
    rejectFunding: build.mutation<ReserveFunding, { fundingId: string; reason: string }>({
      query: ({ fundingId, reason }) => ({
        url: productAdminPaths.rejectFunding.replace(':fundingId', encodeURIComponent(fundingId)), method: 'POST', body: { reason }, quiet: true,
      }),
      invalidatesTags: ['InvestFundings', 'Audit'],
    }),
    productOrders: build.query<PageOf<AdminProductOrder>, OrderListArgs>({
      query: ({ pageNo, productId, status, userId }) => ({
        url: productAdminPaths.orders, params: { pageNo, pageSize, productId, status, userId }, quiet: true,
      }),
      providesTags: ['InvestOrders'],
    }),
    freezeOrder: build.mutation<AdminProductOrder, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: withId(productAdminPaths.freeze, id), method: 'POST', body: { reason }, quiet: true }),
      invalidatesTags: ['InvestOrders', 'Audit'],
    }),
    unfreezeOrder: build.mutation<AdminProductOrder, string>({
      query: (id) => ({ url: withId(productAdminPaths.unfreeze, id), method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['InvestOrders', 'Audit'],
    }),
    miningRewards: build.query<MiningRewardRecord[], string | undefined>({
      query: (asset) => ({ url: productAdminPaths.miningRewards, params: { asset }, quiet: true }),
      transformResponse: (answer: unknown) => records<MiningRewardRecord>(answer),
      providesTags: ['MiningRewards'],
    }),
    publishMiningReward: build.mutation<MiningRewardRecord, MiningRewardInput>({
      query: (body) => ({ url: productAdminPaths.miningRewards, method: 'POST', body, quiet: true }),
      invalidatesTags: ['MiningRewards', 'InvestProducts', 'Audit'],
    }),

    runJob: build.mutation<JobRun, JobName>({
      query: (name) => ({ url: productAdminPaths.runJob.replace(':name', encodeURIComponent(name)), method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['JobRuns', 'InvestProducts', 'InvestOrders', 'Loans', 'VipLevels', 'Audit'],
    }),
    jobRuns: build.query<JobRun[], void>({
      query: () => ({ url: productAdminPaths.jobRuns, quiet: true }),
      transformResponse: (answer: unknown) => records<JobRun>(answer),
      providesTags: ['JobRuns'],
    }),

    adminLoans: build.query<PageOf<AdminLoan>, LoanListArgs>({
      query: ({ pageNo, status, userId }) => ({ url: loanAdminPaths.loans, params: { pageNo, pageSize, status, userId }, quiet: true }),
      providesTags: ['Loans'],
    }),
    adminLoan: build.query<AdminLoanDetail, string>({
      query: (id) => ({ url: withId(loanAdminPaths.loan, id), quiet: true }),
      transformResponse: (answer: unknown) => toAdminLoanDetail((answer ?? {}) as Loose),
      providesTags: ['Loans'],
    }),
    approveLoan: build.mutation<AdminLoan, string>({
      query: (id) => ({ url: withId(loanAdminPaths.approve, id), method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['Loans', 'Audit', 'ReviewContext'],
    }),
    rejectLoan: build.mutation<AdminLoan, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: withId(loanAdminPaths.reject, id), method: 'POST', body: { reason }, quiet: true }),
      invalidatesTags: ['Loans', 'Audit', 'ReviewContext'],
    }),
    loanSettings: build.query<LoanSetting[], void>({
      query: () => ({ url: loanAdminPaths.settings, quiet: true }),
      transformResponse: (answer: unknown) => records<LoanSetting>(answer),
      providesTags: ['LoanSettings'],
    }),
    updateLoanSetting: build.mutation<LoanSetting, { id: string; body: LoanSettingChange }>({
      query: ({ id, body }) => ({ url: withId(loanAdminPaths.setting, id), method: 'POST', body, quiet: true }),
      invalidatesTags: ['LoanSettings', 'Audit'],
    }),

    vipLevels: build.query<VipLevel[], void>({
      query: () => ({ url: levelAdminPaths.levels, quiet: true }),
      transformResponse: (answer: unknown) => {
        const list = object(answer)?.levels;
        return Array.isArray(list) ? list as VipLevel[] : records<VipLevel>(answer);
      },
      providesTags: ['VipLevels'],
    }),
    updateVipLevel: build.mutation<VipLevel, { level: number; body: VipLevelChange }>({
      query: ({ level, body }) => ({ url: levelAdminPaths.level.replace(':level', String(level)), method: 'POST', body, quiet: true }),
      invalidatesTags: ['VipLevels', 'Audit'],
    }),
  }),
});

export const {
  useAdminProductsQuery, useCreateProductMutation, useUpdateProductMutation, useFundReserveMutation, useReserveFundingsQuery,
  useApproveFundingMutation, useRejectFundingMutation, useProductOrdersQuery, useFreezeOrderMutation, useUnfreezeOrderMutation,
  useMiningRewardsQuery, usePublishMiningRewardMutation, useRunJobMutation, useJobRunsQuery, useAdminLoansQuery, useAdminLoanQuery,
  useApproveLoanMutation, useRejectLoanMutation, useLoanSettingsQuery, useUpdateLoanSettingMutation, useVipLevelsQuery,
  useUpdateVipLevelMutation,
} = investAdminApi;
