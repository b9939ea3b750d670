// The pledge loans' LTV monitor (issue 22): for every active pledge loan, the price at which its
// LTV = owed / (collateral × price) reaches the margin call and the liquidation threshold, indexed
// per collateral symbol by that price (the trigger engine's idea, trading/triggers.ts): a tick
// costs a look at the highest thresholds only, O(log n + fired) to keep, never a scan of the loans.
// The index is fed by this instance's market updates (MarketView.onUpdate) and keyed by the exact
// integer threshold (math.ts thresholdPrice), so a loan fires at exactly the ticks at which the
// integer LTV comparison says it has crossed. What fires is settled one at a time after the
// updates before it, each in its own transaction that locks the loan and decides again from the
// row (another instance, a repayment or added collateral may have got there first).
import { eq } from 'drizzle-orm';
import { and, inArray } from 'drizzle-orm';
import { loans } from '../../../db/schema.ts';
import type { Db } from '../../../db/client.ts';
import type { Services } from '../../kernel/services.ts';
import { assert } from '../../../lib/errors.ts';
import type { MarketUpdate } from '../../core/market/bus.ts';
import { symbolByCode } from '../../core/market/symbols.ts';
import { deliverMessages, type WrittenMessage } from '../../kernel/messages.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import { lastTickAt, retainTicks } from '../../core/market/ticks.ts';
import {
  chargeThrough, collateralSymbol, loanById, loanMessage, owedOf, post, scalesOf, signedThresholds, systemAccount, userAccount, type LoanRow,
} from './loans.ts';
import { collateralValue, liquidationSplit, ltvBp, ltvReached, startedDays, thresholdPrice } from './math.ts';
import { assetScales, listLoanSettings, type LoanSettingRow } from './settings.ts';

type Level = 'margin' | 'liquidation';

interface Entry { priceUnits: bigint; loanId: bigint; level: Level }

/** Entries sorted by ascending threshold price: the highest (the first a falling price reaches) is last. */
class ThresholdQueue {
  readonly entries: Entry[] = [];

  #position(entry: Entry): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const other = this.entries[middle];
      const before = other.priceUnits < entry.priceUnits || (other.priceUnits === entry.priceUnits && other.loanId < entry.loanId)
        || (other.priceUnits === entry.priceUnits && other.loanId === entry.loanId && other.level < entry.level);
      if (before) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  add(entry: Entry) { this.entries.splice(this.#position(entry), 0, entry); }

  remove(entry: Entry) {
    const at = this.#position(entry);
    const found = this.entries[at];
    if (found && found.loanId === entry.loanId && found.level === entry.level && found.priceUnits === entry.priceUnits) this.entries.splice(at, 1);
  }

  /** Takes out every entry whose threshold is at or above the price. */
  fired(priceUnits: bigint): Entry[] {
    const out: Entry[] = [];
    while (this.entries.length > 0 && this.entries[this.entries.length - 1].priceUnits >= priceUnits) out.push(this.entries.pop()!);
    return out;
  }
}

export interface TickSeen { symbol: string; priceUnits: bigint; timeMs: number; source: string }

/** The monitors of this process, so the daily job can tell them what it changed. */
const monitors = new Set<LtvMonitor>();

/** Re-reads the given loans into every monitor of this process (after a change of what they owe). */
export async function refreshLoanMonitors(ids: readonly bigint[]) {
  for (const monitor of monitors) await monitor.refresh(ids);
}

export interface LtvMonitorOptions {
  services: Services;
  onError?: (error: unknown) => void;
  /** How often the whole index is rebuilt from the database (changes made by other instances). */
  reloadIntervalMs?: number;
}

export class LtvMonitor {
  readonly #queues = new Map<string, ThresholdQueue>();
  /** Each indexed loan's entries, to take them out when it changes. */
  readonly #entries = new Map<bigint, { symbol: string; entries: Entry[] }>();
  #queue: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(private readonly options: LtvMonitorOptions) {}

  get db(): Db { return this.options.services.db; }

  async start() {
    monitors.add(this);
    await this.reload();
    this.#timer = setInterval(() => {
      this.#queue = this.#queue.then(() => this.reload()).catch((error: unknown) => this.options.onError?.(error));
    }, this.options.reloadIntervalMs ?? 30_000);
    this.#timer.unref?.();
  }

  close() {
    this.#closed = true;
    monitors.delete(this);
    if (this.#timer) clearInterval(this.#timer);
  }

  /** Resolves when every update handed over so far has been handled (tests). */
  drained() { return this.#queue; }

  /** Loans indexed now (tests). */
  get size() { return this.#entries.size; }

  async reload() {
    const rows = await this.db.select().from(loans).where(and(eq(loans.status, 'active'), eq(loans.type, 'pledge')));
    const context = await this.#context();
    for (const queue of this.#queues.values()) queue.entries.length = 0;
    this.#entries.clear();
    for (const row of rows) this.#index(row, context);
  }

  async refresh(ids: readonly bigint[]) {
    if (ids.length === 0 || this.#closed) return;
    const rows = await this.db.select().from(loans).where(inArray(loans.id, [...ids]));
    const context = await this.#context();
    for (const row of rows) this.#index(row, context);
  }

  async #context() {
    return { scales: await assetScales(this.db), settings: new Map((await listLoanSettings(this.db)).map((row) => [row.id, row])) };
  }

  #unindex(loanId: bigint) {
    const held = this.#entries.get(loanId);
    if (!held) return;
    const queue = this.#queues.get(held.symbol);
    for (const entry of held.entries) queue?.remove(entry);
    this.#entries.delete(loanId);
  }

  #index(row: LoanRow, context: { scales: Map<string, number>; settings: Map<bigint, LoanSettingRow> }) {
    this.#unindex(row.id);
    const symbol = collateralSymbol(row.collateralAsset);
    const offer = context.settings.get(row.settingId);
    if (row.status !== 'active' || row.type !== 'pledge' || !symbol || !offer) return;
    const setting = signedThresholds(row, offer);
    const scales = scalesOf(context.scales, row, symbol);
    const owed = owedOf(row);
    const collateral = row.collateral ?? 0n;
    const entries: Entry[] = [{ priceUnits: thresholdPrice(owed, collateral, setting.liquidationLtvBp!, scales), loanId: row.id, level: 'liquidation' }];
    // A margin call is made once; after it only the liquidation threshold is watched.
    if (row.marginCalledAt === null) entries.push({ priceUnits: thresholdPrice(owed, collateral, setting.marginCallLtvBp!, scales), loanId: row.id, level: 'margin' });
    const live = entries.filter((entry) => entry.priceUnits >= 0n);
    if (live.length === 0) return;
    let queue = this.#queues.get(symbol);
    if (!queue) this.#queues.set(symbol, queue = new ThresholdQueue());
    for (const entry of live) queue.add(entry);
    this.#entries.set(row.id, { symbol, entries: live });
  }

  /** Checks one market update; what fired is settled after the updates before it. */
  onUpdate(update: MarketUpdate) {
    if (this.#closed) return;
    for (const ticker of update.tickers) {
      const queue = this.#queues.get(ticker.symbol);
      if (!queue || queue.entries.length === 0) continue;
      const fired = queue.fired(ticker.last);
      if (fired.length === 0) continue;
      const loanIds = [...new Set(fired.map((entry) => entry.loanId))].sort((a, b) => (a < b ? -1 : 1));
      for (const id of loanIds) {
        const held = this.#entries.get(id);
        if (held) for (const entry of held.entries) queue.remove(entry);
        this.#entries.delete(id);
      }
      const tick: TickSeen = { symbol: ticker.symbol, priceUnits: ticker.last, timeMs: ticker.timeMs, source: ticker.source };
      this.#queue = this.#queue.then(async () => {
        for (const id of loanIds) {
          try {
            const messages = await settleLoanAtTick(this.options.services, id, tick);
            deliverMessages(this.options.services, messages);
          } catch (error) {
            this.options.onError?.(error);
          }
        }
        await this.refresh(loanIds);
      });
    }
  }
}

/**
 * Decides a loan at a tick from its locked row: liquidation when the LTV has reached the
 * liquidation threshold, else a margin call (once) when it has reached the margin-call one.
 * Answers the messages written (delivered by the caller after commit).
 */
export async function settleLoanAtTick(services: Services, loanId: bigint, tick: TickSeen): Promise<WrittenMessage[]> {
  const { db, clock } = services;
  return db.transaction(async (tx) => {
    let row = await loanById(tx, loanId, true);
    const symbol = collateralSymbol(row.collateralAsset);
    if (row.status !== 'active' || row.type !== 'pledge' || symbol !== tick.symbol) return [];
    const [offer] = (await listLoanSettings(tx)).filter((candidate) => candidate.id === row.settingId);
    assert(offer, `loan ${loanId} has its offer`);
    const setting = signedThresholds(row, offer);
    const allScales = await assetScales(tx);
    const scales = scalesOf(allScales, row, symbol);
    const collateral = row.collateral ?? 0n;
    const now = clock.now();
    const owedBefore = owedOf(row);
    const pricePrecision = symbolByCode.get(symbol)!.pricePrecision;
    const priceText = formatAmount(tick.priceUnits, pricePrecision);
    const ltv = formatAmount(ltvBp(owedBefore, collateral, tick.priceUnits, scales), 2);
    if (!ltvReached(owedBefore, collateral, tick.priceUnits, setting.liquidationLtvBp!, scales)) {
      if (row.marginCalledAt !== null || !ltvReached(owedBefore, collateral, tick.priceUnits, setting.marginCallLtvBp!, scales)) return [];
      const [after] = await tx.update(loans).set({ marginCalledAt: now }).where(eq(loans.id, row.id)).returning();
      // The tick keys the message: a call made again after collateral or a repayment cleared the
      // first is a new message; the same tick seen twice (by two instances) is not.
      const message = await loanMessage(tx, after, 'loan_margin_call', {
        ltv, price: priceText, symbol, marginCallLtv: formatAmount(BigInt(setting.marginCallLtvBp!), 2),
        liquidationLtv: formatAmount(BigInt(setting.liquidationLtvBp!), 2),
      }, now, `${tick.timeMs}:${tick.priceUnits}`);
      return message ? [message] : [];
    }
    // The days used are charged first (a started day counts), so the loan closes with nothing owed.
    row = await chargeThrough(tx, row, startedDays(row.startsAt!, now), clock);
    const owed = owedOf(row);
    const proceeds = collateralValue(collateral, tick.priceUnits, scales);
    const split = liquidationSplit(owed, proceeds, setting.liquidationFeeBp ?? 0);
    const recorded = await lastTickAt(tx, symbol, tick.timeMs);
    const tickId = recorded && recorded.timeMs === tick.timeMs && recorded.priceUnits === tick.priceUnits ? recorded.id : undefined;
    const reference = `loan:${row.id}`;
    const asset = row.asset;
    const houseLoanAsset = await systemAccount(tx, asset, 'house', row.id);
    const transfers = [
      ...(collateral > 0n ? [{
        id: `loan-liq:${row.id}:collateral`, kind: 'collateral_liquidation' as const, reference, amountAtomic: collateral,
        debitAccountId: await userAccount(tx, row.userId, row.collateralAsset!, 'collateral'),
        creditAccountId: await systemAccount(tx, row.collateralAsset!, 'house', row.id),
      }] : []),
      ...(split.repaid > 0n ? [{
        id: `loan-liq:${row.id}:repay`, kind: 'liquidation_proceeds' as const, reference, amountAtomic: split.repaid,
        debitAccountId: houseLoanAsset, creditAccountId: await userAccount(tx, row.userId, asset, 'loan'),
      }] : []),
      ...(split.fee > 0n ? [{
        id: `loan-liq:${row.id}:fee`, kind: 'liquidation_fee' as const, reference, amountAtomic: split.fee,
        debitAccountId: houseLoanAsset, creditAccountId: await systemAccount(tx, asset, 'fees', row.id),
      }] : []),
      ...(split.returned > 0n ? [{
        id: `loan-liq:${row.id}:return`, kind: 'liquidation_proceeds' as const, reference, amountAtomic: split.returned,
        debitAccountId: houseLoanAsset, creditAccountId: await userAccount(tx, row.userId, asset, 'spot'),
      }] : []),
    ];
    if (transfers.length > 0) await post(tx, transfers, clock, () => 'unreachable');
    // After the ledger, as every settlement does: accounts, then ticks, one lock order everywhere
    // (a position settled at the same tick for the same user would otherwise wait on it in a cycle).
    if (tickId !== undefined) await retainTicks(tx, [tickId]);
    const loanScale = allScales.get(asset) ?? 6;
    const money = (value: bigint) => formatAmount(value, loanScale);
    const receipt: Record<string, string | number> = {
      tickTime: tick.timeMs, price: priceText, symbol, source: tick.source, ...(tickId !== undefined ? { tickId: String(tickId) } : {}),
      ltv, collateralSold: formatAmount(collateral, scales.collateralScale), proceeds: money(split.proceeds), fee: money(split.fee),
      repaid: money(split.repaid), returned: money(split.returned), shortfall: money(split.shortfall),
    };
    const [after] = await tx.update(loans).set({
      status: 'liquidated', repaid: row.repaid + split.repaid, closedAt: now, liquidation: receipt,
    }).where(eq(loans.id, row.id)).returning();
    const message = await loanMessage(tx, after, 'loan_liquidated', {
      price: priceText, symbol, collateral: receipt.collateralSold as string, repaid: money(split.repaid), fee: money(split.fee),
      returned: money(split.returned),
    }, now);
    return message ? [message] : [];
  });
}
