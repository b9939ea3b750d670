// The welfare centre's and VIP rewards' calls (issue 23), injected into the one api: the caller's
// tasks with progress, claiming a reward, the daily check-in, the weekly red envelopes and opening
// one, and each level's bonus and weekly envelope. Reads are quiet (the page shows its own error
// state); the actions are quiet too: the page shows each refusal where it belongs, translated.
import { api } from '../../api/api.ts';
import {
  rewardPaths, type RedEnvelope, type VipRewards, type WelfareCheckin, type WelfareClaimResult, type WelfareTasks,
} from '../../api/contract/rewards.ts';

export const rewardsApi = api.enhanceEndpoints({ addTagTypes: ['Welfare', 'Envelope', 'VipReward'] }).injectEndpoints({
  endpoints: (build) => ({
    welfareTasks: build.query<WelfareTasks, void>({
      query: () => ({ url: rewardPaths.welfareTasks, quiet: true }),
      providesTags: ['Welfare'],
    }),
    claimTask: build.mutation<WelfareClaimResult, { taskId: string }>({
      query: (body) => ({ url: rewardPaths.welfareClaim, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Welfare', 'Balance'],
    }),
    checkIn: build.mutation<WelfareCheckin, void>({
      query: () => ({ url: rewardPaths.welfareCheckin, method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['Welfare'],
    }),
    myEnvelopes: build.query<RedEnvelope[], void>({
      query: () => ({ url: rewardPaths.myEnvelopes, quiet: true }),
      providesTags: ['Envelope'],
    }),
    openEnvelope: build.mutation<RedEnvelope, { id: string }>({
      query: (body) => ({ url: rewardPaths.openEnvelope, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Envelope', 'Balance'],
    }),
    vipRewards: build.query<VipRewards, void>({
      query: () => ({ url: rewardPaths.vipRewards, quiet: true }),
      providesTags: ['VipReward'],
    }),
  }),
});

export const {
  useWelfareTasksQuery, useClaimTaskMutation, useCheckInMutation, useMyEnvelopesQuery, useOpenEnvelopeMutation, useVipRewardsQuery,
} = rewardsApi;
