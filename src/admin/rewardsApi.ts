// The back office's reward calls (issue 23: contract/rewards.ts rewardAdminPaths), injected into
// the one admin API slice: pool balances, fundings (made, approved by a second operator, rejected),
// welfare tasks (list, create, edit), each VIP level's bonus and weekly red envelope, and (issue 38)
// the days a level is held before its bonus is paid.
// Quiet: the screen shows failures in place.
import {
  rewardAdminPaths, type AdminWelfareTask, type FundingBody, type PoolBalance, type RewardFunding, type VipHolding, type VipRewardBody, type VipRewardRow,
  type WelfareTaskBody, type WelfareTaskUpdateBody,
} from '../api/contract/rewards.ts';
import type { PendingChangeField } from '../api/contract/settingChanges.ts';
import { adminApi } from './api.ts';

export const rewardsAdminApi = adminApi.enhanceEndpoints({ addTagTypes: ['RewardPools', 'RewardFundings', 'WelfareTasks', 'VipRewards', 'VipHolding'] }).injectEndpoints({
  endpoints: (build) => ({
    rewardPools: build.query<PoolBalance[], void>({
      query: () => ({ url: rewardAdminPaths.pools, quiet: true }),
      providesTags: ['RewardPools'],
    }),
    rewardFundings: build.query<RewardFunding[], void>({
      query: () => ({ url: rewardAdminPaths.fundings, quiet: true }),
      providesTags: ['RewardFundings'],
    }),
    fundRewardPool: build.mutation<RewardFunding, FundingBody>({
      query: (body) => ({ url: rewardAdminPaths.fundings, method: 'POST', body, quiet: true }),
      invalidatesTags: ['RewardPools', 'RewardFundings', 'Audit'],
    }),
    approveRewardFunding: build.mutation<RewardFunding, string>({
      query: (id) => ({ url: rewardAdminPaths.approveFunding.replace(':id', id), method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['RewardPools', 'RewardFundings', 'Audit'],
    }),
    rejectRewardFunding: build.mutation<RewardFunding, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: rewardAdminPaths.rejectFunding.replace(':id', id), method: 'POST', body: { reason }, quiet: true }),
      invalidatesTags: ['RewardFundings', 'Audit'],
    }),
    welfareTasksAdmin: build.query<AdminWelfareTask[], void>({
      query: () => ({ url: rewardAdminPaths.tasks, quiet: true }),
      providesTags: ['WelfareTasks'],
    }),
    /** Created switched off; switching it on (and any raise) answers `pendingChange` for a second operator (issue 38). */
    createWelfareTask: build.mutation<AdminWelfareTask & PendingChangeField, WelfareTaskBody>({
      query: (body) => ({ url: rewardAdminPaths.tasks, method: 'POST', body, quiet: true }),
      invalidatesTags: ['WelfareTasks', 'Audit', 'SettingChanges'],
    }),
    updateWelfareTask: build.mutation<AdminWelfareTask & PendingChangeField, { id: string; body: WelfareTaskUpdateBody }>({
      query: ({ id, body }) => ({ url: rewardAdminPaths.task.replace(':id', id), method: 'POST', body, quiet: true }),
      invalidatesTags: ['WelfareTasks', 'Audit', 'SettingChanges'],
    }),
    vipRewardRows: build.query<VipRewardRow[], void>({
      query: () => ({ url: rewardAdminPaths.vipRewards, quiet: true }),
      providesTags: ['VipRewards'],
    }),
    setVipReward: build.mutation<VipRewardRow & PendingChangeField, VipRewardBody>({
      query: (body) => ({ url: rewardAdminPaths.vipRewards, method: 'POST', body, quiet: true }),
      invalidatesTags: ['VipRewards', 'Audit', 'SettingChanges'],
    }),
    vipHolding: build.query<VipHolding, void>({
      query: () => ({ url: rewardAdminPaths.vipHolding, quiet: true }),
      providesTags: ['VipHolding'],
    }),
    setVipHolding: build.mutation<VipHolding, VipHolding>({
      query: (body) => ({ url: rewardAdminPaths.vipHolding, method: 'POST', body, quiet: true }),
      invalidatesTags: ['VipHolding', 'Audit'],
    }),
  }),
});

export const {
  useRewardPoolsQuery, useRewardFundingsQuery, useFundRewardPoolMutation, useApproveRewardFundingMutation, useRejectRewardFundingMutation,
  useWelfareTasksAdminQuery, useCreateWelfareTaskMutation, useUpdateWelfareTaskMutation, useVipRewardRowsQuery, useSetVipRewardMutation,
  useVipHoldingQuery, useSetVipHoldingMutation,
} = rewardsAdminApi;
