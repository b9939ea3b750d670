// What the account ledger calls each transfer kind the server writes (server/domain/kernel/ledger/rules.ts
// `transferKinds`): deposits, withdrawals and their fee, operator corrections, virtual funds. A
// kind added later that has no label yet is shown as the server names it rather than hidden.
import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import type { BalanceLogEntry, BalanceLogEvent } from '../../api/contract/wallet.ts';

/** The kinds the type filter offers, in the order it lists them. */
export const ledgerTypes = ['deposit', 'withdrawal', 'withdrawal_fee', 'correction', 'demo_grant'] as const;
export type LedgerType = (typeof ledgerTypes)[number];

const typeLabels: Record<LedgerType, MessageDescriptor> = {
  deposit: msg`Deposit`,
  withdrawal: msg`Withdrawal`,
  withdrawal_fee: msg`Withdrawal fee`,
  correction: msg`Correction`,
  demo_grant: msg`Virtual funds`,
};

/** Which of the user's accounts an entry moved, when it is not the spot account. */
const accountLabels: Record<string, MessageDescriptor> = {
  spot: msg`Spot`,
  frozen: msg`Frozen`,
  position_margin: msg`Position`,
  product_holdings: msg`Products`,
  loan: msg`Loan`,
  collateral: msg`Collateral`,
  competition: msg`Frozen by competition`,
  demo: msg`Virtual`,
};

/** The kinds trading writes (issue 10): named in the ledger, not (yet) offered by the type filter. */
const tradeTypeLabels: Readonly<Record<string, MessageDescriptor>> = {
  trade_margin: msg`Contract margin`,
  trade_fee: msg`Contract fee`,
  trade_pnl: msg`Contract profit or loss`,
  second_stake: msg`Options stake`,
  second_payout: msg`Options payout`,
  swap: msg`Flash swap`,
  swap_fee: msg`Flash swap fee`,
  demo_reset: msg`Virtual funds reset`,
};

/** The kinds of investment products and loans (issue 22), named in the ledger like trading's. */
const investTypeLabels: Readonly<Record<string, MessageDescriptor>> = {
  reserve_funding: msg`Product reserve funding`,
  product_purchase: msg`Product purchase`,
  product_principal: msg`Product principal returned`,
  product_interest: msg`Product income`,
  product_redeem_fee: msg`Early redemption fee`,
  miner_purchase: msg`Mining machine purchase`,
  mining_output: msg`Mining output`,
  bond_refund: msg`Bond refund`,
  loan_disbursal: msg`Loan received`,
  loan_interest: msg`Loan interest`,
  loan_penalty: msg`Loan overdue penalty`,
  loan_repayment: msg`Loan repayment`,
  collateral_lock: msg`Collateral locked`,
  collateral_release: msg`Collateral released`,
  collateral_liquidation: msg`Collateral liquidated`,
  liquidation_proceeds: msg`Liquidation proceeds`,
  liquidation_fee: msg`Liquidation fee`,
};

/** The kinds of competitions, IEO and rewards (issue 23). */
const marketingTypeLabels: Readonly<Record<string, MessageDescriptor>> = {
  competition_entry: msg`Competition entry`,
  competition_return: msg`Competition funds returned`,
  competition_prize: msg`Competition prize`,
  ieo_payment: msg`IEO payment`,
  ieo_allocation: msg`IEO tokens`,
  welfare_reward: msg`Welfare reward`,
  vip_bonus: msg`VIP bonus`,
  red_envelope: msg`Red envelope`,
  team_commission: msg`Team income`,
};

const isLedgerType = (type: string): type is LedgerType => (ledgerTypes as readonly string[]).includes(type);

/** The label of a transfer kind in the user's language; an unknown kind as the server names it. */
export function ledgerTypeLabel(i18n: I18n, type: string): string {
  if (isLedgerType(type)) return i18n._(typeLabels[type]);
  const named = Object.hasOwn(tradeTypeLabels, type) ? tradeTypeLabels[type]
    : Object.hasOwn(investTypeLabels, type) ? investTypeLabels[type]
      : Object.hasOwn(marketingTypeLabels, type) ? marketingTypeLabels[type] : undefined;
  return named ? i18n._(named) : type;
}

export function ledgerAccountLabel(i18n: I18n, account: string): string {
  const label = accountLabels[account];
  return label ? i18n._(label) : account;
}

/**
 * A withdrawal is three steps on the ledger with the same kind: the hold when it is requested
 * (two-phase pending), then the payout (post) or the return (void). The entry's `phase` says
 * which; without it, the withdrawal's transfers are named after the hold (`<hold>-post`,
 * `<hold>-void`, server/domain/core/wallet/withdrawals.ts), and only a return puts money back.
 */
export function withdrawalStep(entry: Pick<BalanceLogEntry, 'id' | 'type' | 'amount' | 'phase'>): 'held' | 'paid' | 'returned' | undefined {
  if (entry.type !== 'withdrawal') return undefined;
  // The server says the step; the transfer id's ending is the fallback for an answer without it.
  if (entry.phase === 'pending') return 'held';
  if (entry.phase === 'post') return 'paid';
  if (entry.phase === 'void') return 'returned';
  if (entry.id.endsWith('-void') || !entry.amount.startsWith('-')) return 'returned';
  if (entry.id.endsWith('-post')) return 'paid';
  return 'held';
}

const stepLabels = {
  held: msg`Withdrawal (frozen)`,
  paid: msg`Withdrawal paid out`,
  returned: msg`Withdrawal returned`,
} as const;

/** The title of a ledger row: the kind, and for a withdrawal which step it is. */
export function ledgerEntryLabel(i18n: I18n, entry: Pick<BalanceLogEntry, 'id' | 'type' | 'amount' | 'phase'>): string {
  const step = withdrawalStep(entry);
  return step ? i18n._(stepLabels[step]) : ledgerTypeLabel(i18n, entry.type);
}

/**
 * The default view names business events (server/domain/kernel/ledger/events.ts): the businesses that
 * write several kinds are called after the business; the rest after their one kind.
 */
const eventTypeLabels: Readonly<Record<string, MessageDescriptor>> = {
  contract: msg`Contract`,
  options: msg`Options`,
  swap: msg`Flash swap`,
  // Should the server fold a loan's or a product's kinds into one business (events.ts), it is named so.
  loan: msg`Loan`,
  product: msg`Investment product`,
};

export function ledgerEventLabel(i18n: I18n, type: string): string {
  const label = Object.hasOwn(eventTypeLabels, type) ? eventTypeLabels[type] : undefined;
  return label ? i18n._(label) : ledgerTypeLabel(i18n, type);
}

type EventState = BalanceLogEvent['state'];
/** How each business says where its money is; a plain move (done) says nothing. */
const stateLabels: Readonly<Record<string, Partial<Record<EventState, MessageDescriptor>>>> = {
  withdrawal: { held: msg`Held`, released: msg`Paid out`, returned: msg`Returned` },
  contract: { held: msg`Margin held`, released: msg`Closed` },
  options: { held: msg`Open`, released: msg`Settled` },
};
const otherStateLabels: Partial<Record<EventState, MessageDescriptor>> = { held: msg`Held`, released: msg`Settled`, returned: msg`Returned` };

export function ledgerEventStateLabel(i18n: I18n, event: Pick<BalanceLogEvent, 'type' | 'state'>): string | undefined {
  const labels = Object.hasOwn(stateLabels, event.type) ? stateLabels[event.type] : otherStateLabels;
  const label = labels[event.state];
  return label ? i18n._(label) : undefined;
}

/**
 * The figure of an event's line: a hold (held, or given back) shows what it holds, unsigned and
 * neutral, for the money is still the user's; a settled event shows what it did to the balance.
 */
export function eventFigure(event: Pick<BalanceLogEvent, 'state' | 'amount' | 'held'>): { value: string; tone: 'up' | 'down' | 'flat' | 'neutral' } {
  if (event.state === 'held' || event.state === 'returned') return { value: event.held, tone: 'neutral' };
  const tone = event.amount.startsWith('-') ? 'down' : /[1-9]/.test(event.amount) ? 'up' : 'flat';
  return { value: event.amount, tone };
}

/** Whether an entry moved its account's balance (a reservation and its return do not), so its balance is worth showing. */
export const entryMovedBalance = (entry: Pick<BalanceLogEntry, 'account' | 'phase'>) =>
  entry.account === 'spot' && entry.phase !== 'pending' && entry.phase !== 'void';
