// A change to a guarded setting (issue 38) in the operator's words: which setting, which one of it
// (a currency, a product, a level, a task), and what it was and would be, one line per value that
// differs ("Bonus: 10.000000 → 500.000000 USDT"). The server stores each setting's state as its
// own wire shape (contract/settingChanges.ts); a shape this screen does not know is shown as
// compact JSON rather than guessed at.
import { useLingui } from '@lingui/react/macro';
import type { SettingChange } from '../../api/contract/settingChanges.ts';
import { formatAmount } from '../format.ts';
import { useStatusLabels } from './ProductsScreen.tsx';

export interface ChangeWords {
  setting: string;
  /** Which one of the setting, or '' for a single setting (team rates). */
  target: string;
  lines: string[];
}

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const hasText = (value: Fields, ...keys: string[]) => keys.every((key) => typeof value[key] === 'string');
const textOf = (value: Fields | undefined, key: string) => (value && typeof value[key] === 'string' ? (value[key] as string) : undefined);

/** Compact JSON of a state, cut to keep a table row readable. */
export function compactJson(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/** Whether two decimal texts differ ("20" and "20.0000" are the same rate). */
function differs(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a !== b;
  const plain = /^[0-9]+(\.[0-9]+)?$/;
  if (!plain.test(a) || !plain.test(b)) return a !== b;
  const [aWhole, aFraction = ''] = a.split('.');
  const [bWhole, bFraction = ''] = b.split('.');
  const width = Math.max(aFraction.length, bFraction.length);
  return BigInt(aWhole + aFraction.padEnd(width, '0')) !== BigInt(bWhole + bFraction.padEnd(width, '0'));
}

/** Says a change in words; the caller renders each line on its own. */
export function useDescribeSettingChange(): (change: SettingChange) => ChangeWords {
  const { t } = useLingui();
  const statusLabels = useStatusLabels();
  const status = (value: string | undefined) => (value ? (statusLabels as Record<string, string>)[value] ?? value : '—');
  const onOff = (value: unknown) => (value ? t`On` : t`Off`);
  /** A product limit, where 0 means none. */
  const limit = (value: string | undefined) => (value === undefined ? '—' : differs(value, '0') ? formatAmount(value) : t`no cap`);
  const fallback = (change: SettingChange): ChangeWords => ({
    setting: change.setting, target: change.target, lines: [`${compactJson(change.before)} → ${compactJson(change.after)}`],
  });

  const threshold = (change: SettingChange, before: Fields, after: Fields): ChangeWords => {
    const from = formatAmount(textOf(before, 'dualApprovalAbove'));
    const to = formatAmount(textOf(after, 'dualApprovalAbove'));
    const currency = textOf(after, 'currency') ?? change.target;
    return { setting: t`Two-operator threshold`, target: currency, lines: [`${from} → ${to} ${currency}`] };
  };

  const product = (change: SettingChange, before: Fields, after: Fields): ChangeWords => {
    const lines: string[] = [];
    const asset = textOf(after, 'asset') ?? '';
    if (before.status !== after.status) {
      const from = status(textOf(before, 'status'));
      const to = status(textOf(after, 'status'));
      lines.push(t`Status: ${from} → ${to}`);
    }
    if (before.minLevel !== after.minLevel) {
      const from = String(before.minLevel ?? '—');
      const to = String(after.minLevel ?? '—');
      lines.push(t`VIP level needed: ${from} → ${to}`);
    }
    const limits = [
      ['maxAmount', (from: string, to: string) => t`Maximum purchase: ${from} → ${to} ${asset}`],
      ['perUserMax', (from: string, to: string) => t`Most one user may hold: ${from} → ${to} ${asset}`],
      ['totalCap', (from: string, to: string) => t`Most sold in all: ${from} → ${to} ${asset}`],
    ] as const;
    for (const [key, words] of limits) {
      if (differs(textOf(before, key), textOf(after, key))) lines.push(words(limit(textOf(before, key)), limit(textOf(after, key))));
    }
    const name = textOf(after, 'name');
    const id = change.target;
    return { setting: t`Product`, target: name ? `${name} (#${id})` : `#${id}`, lines: lines.length > 0 ? lines : [status(textOf(after, 'status'))] };
  };

  const vipReward = (change: SettingChange, before: Fields | undefined, after: Fields): ChangeWords => {
    const asset = textOf(after, 'asset') ?? '';
    const lines: string[] = [];
    // A level without a reward row yet pays nothing; a change of asset names the old one.
    const amount = (key: string) => {
      const from = textOf(before, key);
      const beforeAsset = textOf(before, 'asset');
      return { changed: differs(from ?? '0', textOf(after, key)) || beforeAsset !== asset,
        from: `${formatAmount(from ?? '0')}${beforeAsset && beforeAsset !== asset ? ` ${beforeAsset}` : ''}`, to: formatAmount(textOf(after, key)) };
    };
    const bonus = amount('bonus');
    if (bonus.changed) {
      const { from, to } = bonus;
      lines.push(t`Bonus: ${from} → ${to} ${asset}`);
    }
    const weekly = amount('weeklyEnvelope');
    if (weekly.changed) {
      const { from, to } = weekly;
      lines.push(t`Weekly envelope: ${from} → ${to} ${asset}`);
    }
    const level = change.target;
    return { setting: t`VIP reward`, target: textOf(after, 'name') ?? t`Level ${level}`, lines };
  };

  const welfareTask = (change: SettingChange, before: Fields, after: Fields): ChangeWords => {
    const lines: string[] = [];
    if (before.enabled !== after.enabled) {
      const from = onOff(before.enabled);
      const to = onOff(after.enabled);
      lines.push(t`Switched: ${from} → ${to}`);
    }
    const asset = textOf(after, 'rewardAsset') ?? '';
    if (differs(textOf(before, 'rewardAmount'), textOf(after, 'rewardAmount')) || textOf(before, 'rewardAsset') !== asset) {
      const from = `${formatAmount(textOf(before, 'rewardAmount'))}${textOf(before, 'rewardAsset') !== asset ? ` ${textOf(before, 'rewardAsset') ?? ''}` : ''}`;
      const to = formatAmount(textOf(after, 'rewardAmount'));
      lines.push(t`Reward: ${from} → ${to} ${asset}`);
    }
    if (before.target !== after.target) {
      const from = String(before.target ?? '—');
      const to = String(after.target ?? '—');
      lines.push(t`Target: ${from} → ${to}`);
    }
    const id = change.target;
    return { setting: t`Welfare task`, target: textOf(after, 'name') ?? `#${id}`, lines };
  };

  const teamRates = (before: unknown[], after: unknown[]): ChangeWords => {
    const rateOf = (rows: unknown[], level: unknown) => rows.filter(isFields).find((row) => row.level === level)?.ratePercent as string | undefined;
    const lines = after.filter(isFields).filter((row) => differs(rateOf(before, row.level) ?? '0', row.ratePercent as string)).map((row) => {
      const level = String(row.level);
      const from = rateOf(before, row.level) ?? '0';
      const to = String(row.ratePercent);
      return t`Level ${level}: ${from} % → ${to} %`;
    });
    return { setting: t`Team commission rates`, target: '', lines };
  };

  return (change) => {
    const { before, after } = change;
    switch (change.setting) {
      case 'dual_threshold':
        return isFields(before) && isFields(after) && hasText(after, 'dualApprovalAbove') ? threshold(change, before, after) : fallback(change);
      case 'product':
        return isFields(before) && isFields(after) && hasText(after, 'status') ? product(change, before, after) : fallback(change);
      case 'vip_reward':
        return (before === null || before === undefined || isFields(before)) && isFields(after) && hasText(after, 'asset', 'bonus', 'weeklyEnvelope')
          ? vipReward(change, before ?? undefined, after) : fallback(change);
      case 'welfare_task':
        return isFields(before) && isFields(after) && hasText(after, 'rewardAmount') ? welfareTask(change, before, after) : fallback(change);
      case 'team_rates':
        return Array.isArray(before) && Array.isArray(after) ? teamRates(before, after) : fallback(change);
      default:
        return fallback(change);
    }
  };
}
