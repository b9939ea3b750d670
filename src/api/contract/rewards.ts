// Reward pools, the welfare centre, VIP rewards and weekly red envelopes on the wire (issue 23).
// Amounts are decimal strings in the asset's scale; times are epoch milliseconds; days and weeks
// are UTC YYYY-MM-DD (a week is named by its Monday). Paths are the issue's; field names ours.
import { Type, type Static } from '@sinclair/typebox';
import { AmountText, CurrencyCode } from './wallet.ts';
import { fundingDecision } from './products.ts';
import { RecordId } from './withdrawals.ts';

export const rewardPaths = {
  /** GET → WelfareTasks (the caller's progress on every enabled task, and today's check-in). */
  welfareTasks: '/marketing/welfare/tasks',
  /** POST { taskId } → WelfareClaimResult (pays the task's reward from the rewards pool, once). */
  welfareClaim: '/marketing/welfare/claim',
  /** Ours: POST {} → WelfareCheckin (one per UTC day). */
  welfareCheckin: '/marketing/welfare/checkin',
  /** GET → RedEnvelope[] (the caller's envelopes, newest first, the last 20). */
  myEnvelopes: '/marketing/redEnvelope/mine',
  /** POST { id } → RedEnvelope (opened: the amount is credited to spot). */
  openEnvelope: '/marketing/redEnvelope/open',
  /** Ours: GET → VipRewards (each level's bonus and weekly envelope, and the bonuses the caller got). */
  vipRewards: '/marketing/vipRewards',
} as const;

export const rewardAdminPaths = {
  /** GET ?all → RewardFunding[] (pending, or the last 200); POST FundingBody → RewardFunding. */
  fundings: '/admin/rewards/fundings',
  approveFunding: '/admin/rewards/fundings/:id/approve',
  /** POST { reason }. */
  rejectFunding: '/admin/rewards/fundings/:id/reject',
  /** GET → PoolBalance[] (rewards and prizes, per asset). */
  pools: '/admin/rewards/pools',
  /** GET → AdminWelfareTask[]; POST WelfareTaskBody → AdminWelfareTask. */
  tasks: '/admin/rewards/tasks',
  /** POST WelfareTaskUpdateBody → AdminWelfareTask. */
  task: '/admin/rewards/tasks/:id',
  /** GET → VipRewardRow[]; POST VipRewardBody (one level) → VipRewardRow. */
  vipRewards: '/admin/rewards/vip',
  /** Issue 38: GET → VipHolding; POST VipHolding → VipHolding (the days a level is held before its bonus is paid). */
  vipHolding: '/admin/rewards/vip/holding',
} as const;

// ─── Pools ───────────────────────────────────────────────────────────────────────────────────────

export const rewardPools = ['rewards', 'prizes'] as const;
export const RewardPool = Type.Union(rewardPools.map((pool) => Type.Literal(pool)));
export type RewardPool = Static<typeof RewardPool>;

export const FundingBody = Type.Object({
  pool: RewardPool,
  asset: CurrencyCode,
  amount: AmountText,
  /** Prizes only: the competition the funding is for (recorded; the pool is shared). */
  competitionId: Type.Optional(RecordId),
}, { additionalProperties: false });
export type FundingBody = Static<typeof FundingBody>;

export const RewardFunding = Type.Object({
  id: Type.String(),
  pool: RewardPool,
  asset: Type.String(),
  amount: Type.String(),
  competitionId: Type.Optional(Type.String()),
  ...fundingDecision,
});
export type RewardFunding = Static<typeof RewardFunding>;

export const PoolBalance = Type.Object({ pool: RewardPool, asset: Type.String(), balance: Type.String() });
export type PoolBalance = Static<typeof PoolBalance>;

// ─── Welfare ─────────────────────────────────────────────────────────────────────────────────────

export const welfareKinds = ['first_deposit', 'kyc_basic', 'first_trade', 'first_product', 'invite_deposit', 'checkin_streak'] as const;
export const WelfareKind = Type.Union(welfareKinds.map((kind) => Type.Literal(kind)));
export type WelfareKind = Static<typeof WelfareKind>;
/** in_progress (not done yet), claimable (done, reward not taken), claimed. */
export const WelfareTaskState = Type.Union([Type.Literal('in_progress'), Type.Literal('claimable'), Type.Literal('claimed')]);

export const WelfareTask = Type.Object({
  id: Type.String(),
  kind: WelfareKind,
  /** In the caller's language when the operator wrote one, else English. */
  name: Type.String(),
  progress: Type.Integer(),
  target: Type.Integer(),
  rewardAsset: Type.String(),
  rewardAmount: Type.String(),
  state: WelfareTaskState,
  claimedAt: Type.Optional(Type.Integer()),
});
export type WelfareTask = Static<typeof WelfareTask>;

export const WelfareTasks = Type.Object({
  tasks: Type.Array(WelfareTask),
  checkedInToday: Type.Boolean(),
  /** Consecutive UTC days checked in, ending today (or yesterday when not yet today). */
  checkinStreak: Type.Integer(),
  /**
   * Issue 38: whether the caller's basic verification is approved. Rewards (tasks, envelopes, VIP
   * bonuses) are paid only then; a claim before it is refused with verification_required.
   */
  verified: Type.Optional(Type.Boolean()),
});
export type WelfareTasks = Static<typeof WelfareTasks>;

export const WelfareClaimBody = Type.Object({ taskId: RecordId }, { additionalProperties: false });
export const WelfareClaimResult = Type.Object({ taskId: Type.String(), asset: Type.String(), amount: Type.String(), transferId: Type.String() });
export type WelfareClaimResult = Static<typeof WelfareClaimResult>;
export const WelfareCheckin = Type.Object({ day: Type.String(), checkinStreak: Type.Integer() });
export type WelfareCheckin = Static<typeof WelfareCheckin>;

export const WelfareTaskBody = Type.Object({
  kind: WelfareKind,
  name: Type.String({ minLength: 1, maxLength: 80 }),
  /** Names by language code ("zh-cn": "..."). */
  names: Type.Optional(Type.Record(Type.String({ minLength: 2, maxLength: 8 }), Type.String({ minLength: 1, maxLength: 80 }))),
  target: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  rewardAsset: CurrencyCode,
  rewardAmount: AmountText,
  enabled: Type.Optional(Type.Boolean()),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
}, { additionalProperties: false });
export type WelfareTaskBody = Static<typeof WelfareTaskBody>;
export const WelfareTaskUpdateBody = Type.Partial(Type.Omit(WelfareTaskBody, ['kind']), { additionalProperties: false });
export type WelfareTaskUpdateBody = Static<typeof WelfareTaskUpdateBody>;

export const AdminWelfareTask = Type.Object({
  id: Type.String(), kind: WelfareKind, name: Type.String(), names: Type.Record(Type.String(), Type.String()),
  target: Type.Integer(), rewardAsset: Type.String(), rewardAmount: Type.String(), enabled: Type.Boolean(), sort: Type.Integer(),
  claims: Type.Integer(), paid: Type.String(),
});
export type AdminWelfareTask = Static<typeof AdminWelfareTask>;

// ─── VIP rewards and red envelopes ───────────────────────────────────────────────────────────────

export const VipRewardRow = Type.Object({
  level: Type.Integer(), name: Type.String(), asset: Type.String(), bonus: Type.String(), weeklyEnvelope: Type.String(),
});
export type VipRewardRow = Static<typeof VipRewardRow>;
export const VipRewardBody = Type.Object({
  level: Type.Integer({ minimum: 1, maximum: 100 }), asset: CurrencyCode, bonus: AmountText, weeklyEnvelope: AmountText,
}, { additionalProperties: false });
export type VipRewardBody = Static<typeof VipRewardBody>;

/** Bounds of the holding period (issue 38), in days; a fresh install waits 7. */
export const vipHoldingDaysMax = 90;
export const vipHoldingDaysDefault = 7;
export const VipHolding = Type.Object({
  holdingDays: Type.Integer({ minimum: 0, maximum: vipHoldingDaysMax }),
}, { additionalProperties: false });
export type VipHolding = Static<typeof VipHolding>;

export const VipRewards = Type.Object({
  levels: Type.Array(VipRewardRow),
  level: Type.Integer(),
  highestLevel: Type.Integer(),
  /** The one-time bonuses the caller received. */
  granted: Type.Array(Type.Object({ level: Type.Integer(), asset: Type.String(), amount: Type.String(), time: Type.Integer() })),
  /** Issue 38: whether the caller's basic verification is approved (bonuses are paid only then). */
  verified: Type.Optional(Type.Boolean()),
  /** Issue 38: the days a level must be held without a break before its bonus is paid. */
  holdingDays: Type.Optional(Type.Integer()),
  /**
   * Issue 38: the bonuses of levels the caller holds and has not received, with the time their
   * holding period ends (paid by the first run from then on, while the level is still held).
   */
  waiting: Type.Optional(Type.Array(Type.Object({
    level: Type.Integer(), asset: Type.String(), amount: Type.String(), payableAt: Type.Integer(),
  }))),
});
export type VipRewards = Static<typeof VipRewards>;

export const EnvelopeStatus = Type.Union([Type.Literal('unopened'), Type.Literal('opened'), Type.Literal('expired')]);
export const RedEnvelope = Type.Object({
  id: Type.String(),
  /** The Monday of the week it was issued for. */
  week: Type.String(),
  level: Type.Integer(),
  asset: Type.String(),
  /** Shown once opened (also in the open call's answer); absent while unopened. */
  amount: Type.Optional(Type.String()),
  status: EnvelopeStatus,
  expiresAt: Type.Integer(),
  openedAt: Type.Optional(Type.Integer()),
  createdAt: Type.Integer(),
});
export type RedEnvelope = Static<typeof RedEnvelope>;
export const OpenEnvelopeBody = Type.Object({ id: RecordId }, { additionalProperties: false });
