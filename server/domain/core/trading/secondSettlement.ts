// The settlement engine of second contracts (issue 10), run on the engine instance. The rules:
// entry = the first recorded tick of the symbol at or after accepted_at, exit = the first at or
// after expires_at (ties in time go to the lower tick id); up wins when exit > entry, down when
// exit < entry, equal prices are a draw. Won: the stake returns (held → funds) and the house pays
// ⌊stake × payoutPpm / 10^6⌋ (house → funds); lost: the stake goes to the house (held → house);
// draw: the stake returns. The ticks used are retained (never pruned) and cited by id in the
// order's receipt columns.
//
// Set-based, because 10 000 contracts may expire in the same second (DESIGN §8: all settled in
// ≤ 500 ms): one query finds the due orders with their entry and exit ticks (lateral joins on
// market_ticks' (symbol, time) index) and their funds and held accounts; the orders are grouped
// into chunks of `chunkSize` (by their users' house shard when several run at once); each
// chunk is one transaction: lock its still-open orders (FOR UPDATE SKIP LOCKED: a second settler running at the
// same time skips what this one holds, then finds it settled), one ledger batch through the payout
// primitive (ledger/payouts.ts postGroups: an order's transfers are one group, a refused order stays
// open and is reported while the rest settle), one
// UPDATE of the orders from arrays (the ticks they cite were retained before the chunks, in one
// statement for all of them). Each order settles exactly
// once: only rows locked while 'open' move money, and the transfer ids (second:<id>:...) are
// idempotent in the ledger besides. Chunks of different house shards may run in parallel
// (`concurrency`, on PostgreSQL): the shard follows the user, so they share no row (house or user
// account) and never wait for each other; the ledger locks in ascending order besides.
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import { marginAsset } from '../../../../src/api/contract/trading.ts';
import { formatAmount } from '../../../../src/api/contract/amounts.ts';
import { marginScale } from '../../../../src/api/contract/tradingMath.ts';
import { ledgerName, ledgers, openAccounts, systemShard } from '../../kernel/ledger/accounts.ts';
import { postGroups, type TransferGroup } from '../../kernel/ledger/payouts.ts';
import type { NewTransferRequest } from '../../kernel/ledger/rules.ts';
import type { RecordedTick } from '../market/store.ts';
import { payoutOf, secondOutcome, secondReference, winningsOf } from './secondContracts.ts';
import { retainTicks } from '../market/ticks.ts';
import type { UserEventBus } from '../../kernel/userEvents.ts';
import { deliverMessages, writeMessages, type MessageDelivery, type NewMessage, type WrittenMessage } from '../../kernel/messages.ts';
import { rowsOf, tokenArrayLiteral } from '../../../db/arrays.ts';

export interface SecondSettlerOptions {
  db: Db;
  clock: Clock;
  userEvents: UserEventBus;
  /** Where the "settled" internal messages go after commit (the push service); optional. */
  messages?: MessageDelivery;
  onError?: (error: unknown) => void;
  /** Orders per transaction (one ledger batch of up to two transfers each). */
  chunkSize?: number;
  /** Transactions run at once (different house shards); 1 on PGlite, a few on PostgreSQL. */
  concurrency?: number;
}

/** A due order with everything its settlement needs, from the finder query. */
interface DueOrder {
  id: bigint;
  userId: bigint;
  symbol: string;
  ledger: number;
  direction: string;
  payoutPpm: number;
  amount: bigint;
  entryTickId: bigint;
  entryPrice: bigint;
  exitTickId: bigint;
  exitPrice: bigint;
  fundsAccount: bigint;
  heldAccount: bigint;
}

export interface SettledOrder {
  id: bigint;
  userId: bigint;
  demo: boolean;
  status: 'won' | 'lost' | 'draw';
  payout: bigint;
}

const defaultChunkSize = 300;
/** Orders found per pass at most; a pass repeats until nothing more is due. */
const passLimit = 20_000;

/** A PostgreSQL array literal of plain tokens (digits, lower-case words). */

export class SecondSettler {
  readonly #options: SecondSettlerOptions;
  readonly #chunkSize: number;
  readonly #concurrency: number;
  /** What this settler has done since it was made: orders settled, transfers posted, time in postTransfers. */
  readonly stats = { orders: 0, transfers: 0, ledgerMs: 0, findMs: 0 };
  /** House accounts by `${ledger}:${shard}`. */
  readonly #houses = new Map<string, bigint>();

  constructor(options: SecondSettlerOptions) {
    this.#options = options;
    this.#chunkSize = Math.max(1, Math.min(options.chunkSize ?? defaultChunkSize, 500));
    this.#concurrency = Math.max(1, options.concurrency ?? 1);
  }

  /**
   * After a start, a restart or a takeover: fills the entry ticks of open orders that have one and
   * settles every order whose exit tick is already recorded. Answers how many it settled.
   */
  async catchUp(): Promise<number> {
    await this.#fillEntries(undefined, this.#options.clock.now().getTime());
    return this.#settleDue(undefined, this.#options.clock.now().getTime());
  }

  /**
   * A batch of freshly recorded ticks: fills the entries they give and settles the orders of their
   * symbols that expired at or before the newest tick of the batch. Errors go to onError.
   */
  async onTicks(ticks: RecordedTick[]): Promise<void> {
    if (ticks.length === 0) return;
    let newest = 0;
    const symbols = new Set<string>();
    for (const tick of ticks) {
      symbols.add(tick.symbol);
      if (tick.timeMs > newest) newest = tick.timeMs;
    }
    try {
      await this.#fillEntries([...symbols], newest);
      await this.#settleDue([...symbols], newest);
    } catch (error) {
      this.#report(error);
    }
  }

  #report(error: unknown) {
    if (this.#options.onError) this.#options.onError(error);
    else console.error('second-contract settlement failed', error);
  }

  /** Open orders accepted at or before `untilMs` without an entry tick get the first tick at or after acceptance. */
  async #fillEntries(symbols: string[] | undefined, untilMs: number) {
    const symbolFilter = symbols ? sql`and o.symbol = any(${tokenArrayLiteral(symbols.map(quoteSymbol))}::varchar[])` : sql``;
    const until = new Date(untilMs).toISOString();
    // A correlated sub-select per order (no join back to the table), so the plan is the same on
    // a table without statistics: the open orders by index, one index probe of market_ticks each.
    await this.#options.db.execute(sql`
      with filled as (
        update second_contract_orders o set (entry_tick_id, entry_price) = (
          select m.id, m.price from market_ticks m
          where m.symbol = o.symbol and m.time >= o.accepted_at
          order by m.time, m.id limit 1)
        where o.status = 'open' and o.entry_tick_id is null and o.accepted_at <= ${until}::timestamptz
          ${symbolFilter}
          and exists (select 1 from market_ticks m where m.symbol = o.symbol and m.time >= o.accepted_at)
        returning o.entry_tick_id
      )
      update market_ticks set retained = true
      where id in (select entry_tick_id from filled) and not retained`);
  }

  /** Settles, pass after pass, every open order (of `symbols`) expiring at or before `dueMs` whose exit tick exists. */
  async #settleDue(symbols: string[] | undefined, dueMs: number): Promise<number> {
    let settled = 0;
    for (;;) {
      const findStarted = performance.now();
      const { due, full } = await this.#findDue(symbols, dueMs);
      this.stats.findMs += performance.now() - findStarted;
      if (due.length === 0) return settled;
      const done = await this.#settle(due);
      settled += done.length;
      // Nothing settled (all held by another settler) or the last page: stop; the next tick retries.
      if (done.length === 0 || !full) return settled;
    }
  }

  /**
   * The due orders with their ticks and accounts. The work is per distinct thing, not per order:
   * 10 000 orders expiring in one second share a few thousand (symbol, expiry) exits and belong to
   * far fewer users than orders, so the exit tick is probed once per (symbol, expires_at) and the
   * two accounts once per user; the entry tick is looked up only for an order #fillEntries has not
   * filled (an order accepted after the last tick it saw).
   */
  async #findDue(symbols: string[] | undefined, dueMs: number): Promise<{ due: DueOrder[]; full: boolean }> {
    const symbolFilter = symbols ? sql`and o.symbol = any(${tokenArrayLiteral(symbols.map(quoteSymbol))}::varchar[])` : sql``;
    const result = await this.#options.db.execute(sql`
      with due as materialized (
        select o.id, o.user_id, o.ledger, o.symbol, o.direction, o.payout_ppm, o.amount, o.accepted_at, o.expires_at,
          o.entry_tick_id, o.entry_price
        from second_contract_orders o
        where o.status = 'open' and o.expires_at <= ${new Date(dueMs).toISOString()}::timestamptz
        ${symbolFilter}
        order by o.id
        limit ${passLimit}
      ), exits as (
        select d.symbol, d.expires_at, ex.id, ex.price
        from (select distinct symbol, expires_at from due) d
        cross join lateral (
          select m.id, m.price from market_ticks m
          where m.symbol = d.symbol and m.time >= d.expires_at
          order by m.time, m.id limit 1
        ) ex
      ), owners as (
        select w.user_id, w.ledger, f.id as funds, h.id as held
        from (select distinct user_id, ledger from due) w
        join ledger_accounts f on f.ledger = w.ledger and f.owner_user_id = w.user_id and f.asset = ${marginAsset}
          and f.kind = (case when w.ledger = ${ledgers.demo} then 'demo' else 'spot' end) and f.shard = 0
        join ledger_accounts h on h.ledger = w.ledger and h.owner_user_id = w.user_id and h.asset = ${marginAsset}
          and h.kind = 'position_margin' and h.shard = 0
      )
      select d.id::text as id, d.user_id::text as user_id, d.symbol, d.ledger, d.direction, d.payout_ppm, d.amount::text as amount,
        coalesce(d.entry_tick_id, en.id)::text as entry_tick_id, coalesce(d.entry_price, en.price)::text as entry_price,
        e.id::text as exit_tick_id, e.price::text as exit_price, w.funds::text as funds_account, w.held::text as held_account,
        (select count(*) from due)::int as due_count
      from due d
      join exits e on e.symbol = d.symbol and e.expires_at = d.expires_at
      join owners w on w.user_id = d.user_id and w.ledger = d.ledger
      left join lateral (
        select m.id, m.price from market_ticks m
        where d.entry_tick_id is null and m.symbol = d.symbol and m.time >= d.accepted_at
        order by m.time, m.id limit 1
      ) en on true
      where d.entry_tick_id is not null or en.id is not null
      order by d.id`);
    const rows = rowsOf<Record<string, string | number>>(result);
    const due = rows.map((row) => ({
      id: BigInt(row.id), userId: BigInt(row.user_id), symbol: String(row.symbol), ledger: Number(row.ledger), direction: String(row.direction),
      payoutPpm: Number(row.payout_ppm), amount: BigInt(row.amount), entryTickId: BigInt(row.entry_tick_id),
      entryPrice: BigInt(row.entry_price), exitTickId: BigInt(row.exit_tick_id), exitPrice: BigInt(row.exit_price),
      fundsAccount: BigInt(row.funds_account), heldAccount: BigInt(row.held_account),
    }));
    // Full: the pass took passLimit orders (some perhaps without an exit tick yet), so more may be due.
    return { due, full: rows.length > 0 && Number(rows[0].due_count) >= passLimit };
  }

  /** Settles the given due orders (those still open), chunked by house shard; answers what it settled. */
  async #settle(due: DueOrder[]): Promise<SettledOrder[]> {
    await this.#openHouses(due);
    // The ticks the orders settle at are retained first, once for all the chunks: retention is
    // never undone and keeping a tick an order then does not settle at costs nothing, while each
    // chunk retaining them in its own transaction held the few exit ticks' rows to its commit, so
    // the first chunk of every lane queued behind the others' on the same rows.
    await retainTicks(this.#options.db, due.flatMap((order) => [order.entryTickId, order.exitTickId]));
    // One lane: chunks in id order. Several: each lane takes whole house shards, so two chunks
    // running at once never wait on the same house row.
    const lanes: DueOrder[][][] = [];
    if (this.#concurrency === 1) {
      lanes.push([]);
      for (let i = 0; i < due.length; i += this.#chunkSize) lanes[0].push(due.slice(i, i + this.#chunkSize));
    } else {
      const byShard = new Map<number, DueOrder[]>();
      for (const order of due) {
        const shard = houseShardOf(order);
        const group = byShard.get(shard);
        if (group) group.push(order);
        else byShard.set(shard, [order]);
      }
      for (let lane = 0; lane < Math.min(this.#concurrency, byShard.size); lane += 1) lanes.push([]);
      let lane = 0;
      for (const group of byShard.values()) {
        for (let i = 0; i < group.length; i += this.#chunkSize) lanes[lane].push(group.slice(i, i + this.#chunkSize));
        lane = (lane + 1) % lanes.length;
      }
    }
    const settled: SettledOrder[] = [];
    const failures: unknown[] = [];
    await Promise.all(lanes.map(async (laneChunks) => {
      for (const chunk of laneChunks) {
        try {
          settled.push(...await this.#settleChunk(chunk));
        } catch (error) {
          failures.push(error);
        }
      }
    }));
    for (const order of settled) {
      this.#options.userEvents.publish(order.userId, { kind: 'second', demo: order.demo, id: String(order.id), status: order.status });
    }
    if (failures.length > 0) throw failures[0];
    return settled;
  }

  async #openHouses(due: DueOrder[]) {
    const missing = new Map<string, { ledger: number; shard: number }>();
    for (const order of due) {
      const shard = houseShardOf(order);
      const key = `${order.ledger}:${shard}`;
      if (!this.#houses.has(key)) missing.set(key, { ledger: order.ledger, shard });
    }
    if (missing.size === 0) return;
    const entries = [...missing];
    const ids = await openAccounts(this.#options.db, entries.map(([, { ledger, shard }]) => ({
      ledger: ledgerName(ledger), asset: marginAsset, kind: 'house' as const, shard,
    })));
    entries.forEach(([key], index) => this.#houses.set(key, ids[index]));
  }

  async #settleChunk(chunk: DueOrder[]): Promise<SettledOrder[]> {
    const { db, clock } = this.#options;
    const settledAt = clock.now();
    const written: WrittenMessage[] = [];
    const outcomes = await db.transaction(async (tx) => {
      const locked = new Set(rowsOf<{ id: string }>(await tx.execute(sql`
        select id::text as id from second_contract_orders
        where id = any(${tokenArrayLiteral(chunk.map((order) => order.id))}::bigint[]) and status = 'open'
        order by id for update skip locked`)).map((row) => BigInt(row.id)));
      let orders = chunk.filter((order) => locked.has(order.id));
      if (orders.length === 0) return [];
      const groups: TransferGroup<{ order: DueOrder; outcome: SettledOrder }>[] = [];
      for (const order of orders) {
        const status = secondOutcome(order.direction, order.entryPrice, order.exitPrice);
        const payout = payoutOf(status, order.amount, order.payoutPpm);
        const house = this.#houses.get(`${order.ledger}:${houseShardOf(order)}`)!;
        const reference = secondReference(order.id);
        const transfers: NewTransferRequest[] = [];
        if (status === 'lost') {
          transfers.push({ id: `${reference}:loss`, kind: 'second_stake', reference, amountAtomic: order.amount,
            debitAccountId: order.heldAccount, creditAccountId: house });
        } else {
          transfers.push({ id: `${reference}:return`, kind: 'second_payout', reference, amountAtomic: order.amount,
            debitAccountId: order.heldAccount, creditAccountId: order.fundsAccount });
          const winnings = status === 'won' ? winningsOf(order.amount, order.payoutPpm) : 0n;
          if (winnings > 0n) {
            transfers.push({ id: `${reference}:win`, kind: 'second_payout', reference, amountAtomic: winnings,
              debitAccountId: house, creditAccountId: order.fundsAccount });
          }
        }
        groups.push({ target: { order, outcome: { id: order.id, userId: order.userId, demo: order.ledger === ledgers.demo, status, payout } }, transfers });
      }
      const ledgerStarted = performance.now();
      // One order's transfers are one group: a refused order (a bug: the stake is held, the house has
      // no limit) stays open and is reported, and the rest of the chunk settles.
      const posted = await postGroups(tx, groups, clock);
      this.stats.ledgerMs += performance.now() - ledgerStarted;
      for (const refused of posted.refused) {
        this.#report(new Error(`second-contract settlement of order ${refused.target.order.id} refused by the ledger: ${refused.refusal} (transfer ${refused.transferId})`));
      }
      if (posted.posted.length === 0) return [];
      orders = posted.posted.map((target) => target.order);
      const outcomes = posted.posted.map((target) => target.outcome);
      await tx.execute(sql`
        update second_contract_orders o set status = v.status, entry_tick_id = v.entry_id, entry_price = v.entry_price,
          exit_tick_id = v.exit_id, exit_price = v.exit_price, payout = v.payout, settled_at = ${settledAt.toISOString()}::timestamptz
        from unnest(${tokenArrayLiteral(orders.map((order) => order.id))}::bigint[],
          ${tokenArrayLiteral(outcomes.map((outcome) => outcome.status))}::varchar[],
          ${tokenArrayLiteral(orders.map((order) => order.entryTickId))}::bigint[],
          ${tokenArrayLiteral(orders.map((order) => order.entryPrice))}::bigint[],
          ${tokenArrayLiteral(orders.map((order) => order.exitTickId))}::bigint[],
          ${tokenArrayLiteral(orders.map((order) => order.exitPrice))}::bigint[],
          ${tokenArrayLiteral(outcomes.map((outcome) => outcome.payout))}::numeric[])
          as v(id, status, entry_id, entry_price, exit_id, exit_price, payout)
        where o.id = v.id and o.status = 'open'`);
      // The real orders' "settled" internal messages, in this transaction, in one statement (issue 21).
      const messages: NewMessage[] = [];
      for (const { order, outcome } of posted.posted) {
        if (outcome.demo) continue;
        messages.push({
          userId: order.userId, kind: 'second_contract_settled', category: 'trading', route: '/heyue',
          params: {
            id: String(order.id), symbol: order.symbol, direction: order.direction, status: outcome.status,
            amount: formatAmount(order.amount, marginScale), payout: formatAmount(outcome.payout, marginScale),
          },
          dedupeKey: `second:${order.id}:settled`,
        });
      }
      written.push(...await writeMessages(tx, messages, settledAt));
      this.stats.orders += outcomes.length;
      this.stats.transfers += posted.transfers.length;
      return outcomes;
    });
    deliverMessages({ userEvents: this.#options.userEvents, push: this.#options.messages }, written);
    return outcomes;
  }
}

/**
 * The house shard an order settles against: its user's, so that the chunks of one house shard
 * also hold every order of their users, and chunks of different shards running at once share no
 * row at all: neither a house account nor a user's funds or held account.
 */
const houseShardOf = (order: Pick<DueOrder, 'userId'>) => systemShard(`second-house:${order.userId}`);

/** Symbols are upper-case letters and digits; quoted for an array literal all the same. */
function quoteSymbol(symbol: string): string {
  if (!/^[A-Z0-9]{2,20}$/.test(symbol)) throw new Error(`not a symbol: ${symbol}`);
  return symbol;
}
