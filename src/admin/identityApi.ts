// The back office's identity calls (contract/identity.ts kycAdminPaths, security.ts
// operatorSecurityPaths), injected into the one admin API slice: the KYC review queue and its
// decisions, what each verification level unlocks, user search with the security state (and an
// admin's removal of a lost Google Authenticator), and the
// operator's own authenticator rotation. Writes and the screens' lists are `quiet`: the screen
// shows a refusal or a failed load in place. The identity photos are not here: they are read as
// blobs with the operator's token (kycPhotoUrl + transport.ts fetchProof).
import { apiPrefix } from '../api/contract/paths.ts';
import {
  kycAdminPaths, type AdminGoogleAuthReset, type AdminKycApplication, type AdminResetGoogleAuthBody, type AdminUserSecurity, type KycLevel,
} from '../api/contract/identity.ts';
import {
  operatorSecurityPaths, type OperatorTotpConfirmBody, type OperatorTotpConfirmed, type OperatorTotpStart,
} from '../api/contract/security.ts';
import type { PageOf } from '../api/contract/wallet.ts';
import { adminApi } from './api.ts';

export type KycStatusFilter = 'pending' | 'approved' | 'rejected';

export interface KycListArgs {
  pageNo: number;
  status?: KycStatusFilter;
  level?: 1 | 2;
  userId?: string;
}

export interface KycLevelChange {
  level: number;
  /** null: no limit. */
  withdrawDailyLimit: string | null;
  loanLimit: string;
  productsOpen: boolean;
}

const pageSize = 20;
const withId = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));

/** Where an application's photo is read (with the operator's token; the server audits each read). */
export const kycPhotoUrl = (id: string, side: 'front' | 'back') =>
  `${apiPrefix}${withId(kycAdminPaths.photo, id).replace(':side', side)}`;

export const identityAdminApi = adminApi.enhanceEndpoints({ addTagTypes: ['Kyc', 'KycLevel', 'UserSearch'] }).injectEndpoints({
  endpoints: (build) => ({
    kycApplications: build.query<PageOf<AdminKycApplication>, KycListArgs>({
      query: ({ pageNo, status, level, userId }) => ({
        url: kycAdminPaths.list, params: { pageNo, pageSize, status, level, userId: userId || undefined }, quiet: true,
      }),
      providesTags: ['Kyc'],
    }),
    kycApplication: build.query<AdminKycApplication, string>({
      query: (id) => ({ url: withId(kycAdminPaths.detail, id), quiet: true }),
      providesTags: ['Kyc'],
    }),
    approveKyc: build.mutation<unknown, string>({
      query: (id) => ({ url: withId(kycAdminPaths.approve, id), method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['Kyc', 'Audit', 'UserSearch'],
    }),
    rejectKyc: build.mutation<unknown, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: withId(kycAdminPaths.reject, id), method: 'POST', body: { reason }, quiet: true }),
      invalidatesTags: ['Kyc', 'Audit', 'UserSearch'],
    }),
    kycLevels: build.query<KycLevel[], void>({
      query: () => ({ url: kycAdminPaths.levels, quiet: true }), providesTags: ['KycLevel'],
    }),
    setKycLevel: build.mutation<KycLevel, KycLevelChange>({
      query: ({ level, ...body }) => ({ url: kycAdminPaths.level.replace(':level', String(level)), method: 'POST', body, quiet: true }),
      invalidatesTags: ['KycLevel', 'Audit'],
    }),
    searchUsers: build.query<PageOf<AdminUserSecurity>, { q: string; pageNo: number }>({
      query: ({ q, pageNo }) => ({ url: kycAdminPaths.users, params: { q, pageNo, pageSize }, quiet: true }),
      providesTags: ['UserSearch'],
      // Each search is audited: a page left and opened again reads anew, never from an old answer.
      keepUnusedDataFor: 0,
    }),
    resetGoogleAuth: build.mutation<AdminGoogleAuthReset, AdminResetGoogleAuthBody & { userId: string }>({
      query: ({ userId, ...body }) => ({ url: withId(kycAdminPaths.resetGoogleAuth, userId), method: 'POST', body, quiet: true }),
      invalidatesTags: ['UserSearch', 'Audit'],
    }),
    startTotpRotation: build.mutation<OperatorTotpStart, void>({
      query: () => ({ url: operatorSecurityPaths.totpStart, method: 'POST', body: {}, quiet: true }),
    }),
    confirmTotpRotation: build.mutation<OperatorTotpConfirmed, OperatorTotpConfirmBody>({
      query: (body) => ({ url: operatorSecurityPaths.totpConfirm, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Audit'],
    }),
  }),
});

export const {
  useKycApplicationsQuery, useKycApplicationQuery, useApproveKycMutation, useRejectKycMutation, useKycLevelsQuery, useSetKycLevelMutation,
  useSearchUsersQuery, useResetGoogleAuthMutation, useStartTotpRotationMutation, useConfirmTotpRotationMutation,
} = identityAdminApi;
