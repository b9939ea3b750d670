// Changes to settings that decide what the house pays (issue 38 point 1): raising a two-operator
// threshold, putting a product on sale or raising its limits, welfare and VIP rewards, team
// commission rates, and a currency's operator-set USDT rate (it values VIP levels, withdrawal
// limits and the two-operator windows, so any change of it). A change that pays less applies at once; one that pays more waits for a second,
// different operator. The setting's own call answers its state as it is now, and `pendingChange`
// when the change is waiting (an optional field: a client that ignores it still reads the setting).
import { Type, type Static } from '@sinclair/typebox';

export const settingChangePaths = {
  /** GET ?all → SettingChange[] (pending, or the last 200). */
  list: '/admin/settingChanges',
  /** POST {} → SettingChange (applied), by an admin or finance operator other than the requester. */
  approve: '/admin/settingChanges/:id/approve',
  /** POST { reason } → SettingChange (rejected; the requester may withdraw their own this way). */
  reject: '/admin/settingChanges/:id/reject',
} as const;

/** The settings guarded so, as `setting` names them. */
export const guardedSettings = ['dual_threshold', 'vip_reward', 'welfare_task', 'team_rates', 'product', 'currency_rate'] as const;
export type GuardedSetting = (typeof guardedSettings)[number];

export const SettingChange = Type.Object({
  id: Type.String(),
  setting: Type.String(),
  /** Which one: a currency, a level, a task or product id, an asset; "" for a single setting. */
  target: Type.String(),
  /** The setting's state when asked (or when applied), and what the change makes of it. */
  before: Type.Unknown(),
  after: Type.Unknown(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('applied'), Type.Literal('rejected')]),
  requestedBy: Type.String(),
  decidedBy: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.Integer(),
  decidedAt: Type.Union([Type.Integer(), Type.Null()]),
});
export type SettingChange = Static<typeof SettingChange>;

/** What a guarded setting's call adds to its answer while the change waits. */
export interface PendingChangeField { pendingChange?: SettingChange }

/** The bounds a guarded value may not pass, whoever approves. */
export const settingBounds = {
  /** A two-operator threshold, valued in USDT. */
  dualThresholdUsdtMax: '1000000',
  /** A VIP level's one-time bonus and its weekly envelope, valued in USDT. */
  vipBonusUsdtMax: '10000',
  vipEnvelopeUsdtMax: '1000',
  /** A welfare task's reward, valued in USDT. */
  welfareRewardUsdtMax: '1000',
  /** A product's daily rate, percent a day. */
  productDailyRatePercentMax: '1',
} as const;

export const settingChangeErrorCodes = ['setting_change_not_found', 'setting_change_requested_by_you', 'setting_out_of_bounds'] as const;
