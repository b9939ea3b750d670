// The settings that decide what the house pays, as the two-operator rule for settings
// (domain/kernel/settingChanges.ts) sees them: for each, how it is applied (the area's own function, with
// its bounds), and what counts as paying more — a threshold raised, a bonus, reward or rate raised,
// a product put on sale or its limits raised, a welfare task switched on or made easier. Composition
// of programs lives here, at the edge, so the kernel never imports the programs it guards.
import type { Static } from '@sinclair/typebox';
import type { UpdateProductBody } from '../../../src/api/contract/products.ts';
import type { VipRewardBody, WelfareTaskUpdateBody } from '../../../src/api/contract/rewards.ts';
import { settingBounds, type GuardedSetting } from '../../../src/api/contract/settingChanges.ts';
import type { UpdateTeamRatesBody } from '../../../src/api/contract/team.ts';
import type { CurrencySettingsBody } from '../../../src/api/contract/wallet.ts';
import type { Tx } from '../../db/client.ts';
import { AppError, assert } from '../../lib/errors.ts';
import { parseAmount } from '../../domain/kernel/ledger/amounts.ts';
import { usdtAtomic } from '../../domain/kernel/ledger/dualControl.ts';
import type { SettingApplied, SettingSpec, SettingSpecs } from '../../domain/kernel/settingChanges.ts';
import { applyDualApprovalThreshold } from '../../domain/core/wallet/approvals.ts';
import { updateCurrencySettings, valueForDualControl } from '../../domain/core/wallet/currencies.ts';
import { updateProduct } from '../../domain/programs/products/admin.ts';
import { adminProductWire } from '../../domain/programs/products/products.ts';
import { assetScales } from '../../domain/kernel/ledger/assets.ts';
import { setVipReward } from '../../domain/programs/rewards/vip.ts';
import { updateWelfareTask } from '../../domain/programs/rewards/welfare.ts';
import { updateRates } from '../../domain/programs/team/team.ts';

/** Whether decimal text `a` is above `b` (both plain decimals, as the wire writes amounts and rates). */
export function decimalAbove(a: string, b: string): boolean {
  const scale = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const left = parseAmount(a, scale);
  const right = parseAmount(b, scale);
  assert(left.ok && right.ok, `decimals ${a} and ${b}`);
  return left.atomic > right.atomic;
}

/** Refuses an amount of `asset` worth more than `maxUsdt` (whole USDT) at the recorded price. */
async function refuseAbove(tx: Tx, asset: string, amountText: string, maxUsdt: string, what: string, now: Date): Promise<void> {
  const scale = (await assetScales(tx)).get(asset);
  if (scale === undefined) return;
  const parsed = parseAmount(amountText, scale);
  if (!parsed.ok) return;
  const value = await valueForDualControl(tx, asset, scale, parsed.atomic, now);
  if (value.valueUsdt !== null && value.valueUsdt > await usdtAtomic(tx, maxUsdt)) {
    throw new AppError(400, 'setting_out_of_bounds', `${what} is at most ${maxUsdt} USDT in value.`, { max: maxUsdt });
  }
}

interface Threshold { dualApprovalAbove: string }
interface VipRow { asset: string; bonus: string; weeklyEnvelope: string }
interface Task { enabled: boolean; rewardAsset: string; rewardAmount: string; target: number }
interface Rate { level: number; ratePercent: string }
interface Product { status: string; maxAmount: string; perUserMax: string; totalCap: string }

/** A limit of 0 means "none" on a product: going to 0 from a number raises it. */
const limitRaised = (after: string, before: string) => (decimalAbove(after, '0') ? decimalAbove(after, before) : decimalAbove(before, '0'));

export function dualThresholdSpec(currency: string, body: { dualApprovalAbove: string }): SettingSpec<{ dualApprovalAbove: string }> {
  return {
    setting: 'dual_threshold', target: currency, body, auditAction: 'withdrawal.settings', auditTargetType: 'currency',
    // The audit keeps the amounts alone, as it always has ({ dualApprovalAbove }).
    apply: async (tx, change, now) => {
      const { before, after } = await applyDualApprovalThreshold(tx, currency, change.dualApprovalAbove, now);
      return { before: { dualApprovalAbove: before.dualApprovalAbove }, after: { dualApprovalAbove: after.dualApprovalAbove } };
    },
    raises: ({ before, after }) => decimalAbove((after as Threshold).dualApprovalAbove, (before as Threshold).dualApprovalAbove),
  };
}

export function vipRewardSpec(body: VipRewardBody): SettingSpec<VipRewardBody> {
  return {
    setting: 'vip_reward', target: String(body.level), body, auditAction: 'vip.reward.update', auditTargetType: 'vip_reward',
    apply: async (tx, change, now) => {
      await refuseAbove(tx, change.asset, change.bonus, settingBounds.vipBonusUsdtMax, 'A VIP bonus', now);
      await refuseAbove(tx, change.asset, change.weeklyEnvelope, settingBounds.vipEnvelopeUsdtMax, 'A weekly envelope', now);
      return setVipReward(tx, change, now);
    },
    raises: ({ before, after }) => {
      const next = after as VipRow;
      const last = before as VipRow | undefined;
      if (!last || last.asset !== next.asset) return decimalAbove(next.bonus, '0') || decimalAbove(next.weeklyEnvelope, '0');
      return decimalAbove(next.bonus, last.bonus) || decimalAbove(next.weeklyEnvelope, last.weeklyEnvelope);
    },
  };
}

export function welfareTaskSpec(id: string, body: WelfareTaskUpdateBody): SettingSpec<WelfareTaskUpdateBody> {
  return {
    setting: 'welfare_task', target: id, body, auditAction: 'welfare.task.update', auditTargetType: 'welfare_task',
    apply: async (tx, change, now) => {
      const applied = await updateWelfareTask(tx, BigInt(id), change, now);
      const task = applied.after as Task;
      await refuseAbove(tx, task.rewardAsset, task.rewardAmount, settingBounds.welfareRewardUsdtMax, 'A welfare reward', now);
      return applied;
    },
    raises: ({ before, after }) => {
      const next = after as Task;
      const last = before as Task;
      if (!next.enabled || !decimalAbove(next.rewardAmount, '0')) return false;
      return !last.enabled || last.rewardAsset !== next.rewardAsset || decimalAbove(next.rewardAmount, last.rewardAmount) || next.target < last.target;
    },
  };
}

export function teamRatesSpec(body: UpdateTeamRatesBody): SettingSpec<UpdateTeamRatesBody> {
  return {
    setting: 'team_rates', target: '', body, auditAction: 'team.rates', auditTargetType: 'team_commission_rates',
    apply: (tx, change, now) => updateRates(tx, change, now),
    raises: ({ before, after }) => (after as Rate[]).some((rate) => {
      const last = (before as Rate[]).find((candidate) => candidate.level === rate.level);
      return decimalAbove(rate.ratePercent, last?.ratePercent ?? '0');
    }),
  };
}

export function productSpec(id: string, body: Static<typeof UpdateProductBody>): SettingSpec<Static<typeof UpdateProductBody>> {
  return {
    setting: 'product', target: id, body, auditAction: 'product.update', auditTargetType: 'product',
    apply: async (tx, change, now): Promise<SettingApplied> => {
      const { before, after } = await updateProduct(tx, BigInt(id), change, now);
      const scales = await assetScales(tx);
      return { before: await adminProductWire(tx, before, scales, now), after: await adminProductWire(tx, after, scales, now) };
    },
    raises: ({ before, after }) => {
      const next = after as Product;
      const last = before as Product;
      if (next.status !== 'open') return false;
      return last.status !== 'open' || limitRaised(next.maxAmount, last.maxAmount) || limitRaised(next.perUserMax, last.perUserMax)
        || limitRaised(next.totalCap, last.totalCap);
    },
  };
}

/**
 * A currency's operator-set USDT rate values VIP levels, withdrawal limits and the two-operator
 * windows where the feed has no price: any change of it (up, down, set or cleared) takes two.
 * Switching the currency on or off alone applies at once.
 */
export function currencyRateSpec(code: string, body: CurrencySettingsBody): SettingSpec<CurrencySettingsBody> {
  return {
    setting: 'currency_rate', target: code, body, auditAction: 'settings.currency', auditTargetType: 'currency',
    apply: (tx, change, now) => updateCurrencySettings(tx, code, change, now),
    raises: ({ before, after }) => (before as { usdtRate: string | null }).usdtRate !== (after as { usdtRate: string | null }).usdtRate,
  };
}

/** A stored request's spec, for its approval. */
export const houseSettingSpecs: SettingSpecs = (setting, target, body) => {
  switch (setting as GuardedSetting) {
    case 'dual_threshold': return dualThresholdSpec(target, body as { dualApprovalAbove: string }) as SettingSpec<unknown>;
    case 'vip_reward': return vipRewardSpec(body as VipRewardBody) as SettingSpec<unknown>;
    case 'welfare_task': return welfareTaskSpec(target, body as WelfareTaskUpdateBody) as SettingSpec<unknown>;
    case 'team_rates': return teamRatesSpec(body as UpdateTeamRatesBody) as SettingSpec<unknown>;
    case 'product': return productSpec(target, body as Static<typeof UpdateProductBody>) as SettingSpec<unknown>;
    case 'currency_rate': return currencyRateSpec(target, body as CurrencySettingsBody) as SettingSpec<unknown>;
    default: throw new Error(`no spec for setting ${setting}`);
  }
};
