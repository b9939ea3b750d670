// Trading competitions (issue 23). Joining moves the entry amount from spot into the user's
// `competition` account (real ledger, 'competition_entry'); contracts opened with the
// competition's id trade on that account during the window (trading.ts); exiting early closes the
// user's competition positions at the last tick through the normal close path and moves the whole
// competition account back to spot ('competition_return'): status exited (-3), no rank, no prize.
// The end (issue 38) is the engine's: on the first tick at or after the end instant it closes every
// open competition position at the end tick and freezes the ranking (ending.ts, jobs.ts), and the
// daily competition-settle job catches up on the same tick. One running or scheduled entry per user
// at a time, so one competition account per user is enough.
//
// Live rank: equity = competition account balance + margin of the entry's open competition
// positions + their unrealised P/L at the last recorded tick; return (ppm) = (equity − entry) ×
// 10^6 / entry, truncated toward zero; ranked by return, ties by the earlier join (then entry id).
import { and, asc, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import {
  competitionStatusCodes, ratePercentOfPpm, type Competition, type CompetitionDetail, type CompetitionEntry,
  type CompetitionListQuery, type CompetitionState, type CompetitionStatusCode, type CreateCompetitionBody, type EntryState,
  type MyEntriesQuery, type PrizeRow, type RankingRow,
} from '../../../../src/api/contract/competitions.ts';
import { marginAsset, type Direction } from '../../../../src/api/contract/trading.ts';
import * as math from '../../../../src/api/contract/tradingMath.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import { competitionEntries, competitions, ledgerAccounts, tradePositions, users } from '../../../db/schema.ts';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import { AppError, assert, badRequest, conflict, notFound } from '../../../lib/errors.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import { balanceOf, ledgers, openAccounts } from '../../kernel/ledger/accounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import { symbolByCode } from '../../core/market/symbols.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';
import { unitsOf } from '../../core/trading/positionWire.ts';
import { settleLocked } from '../../core/trading/positions.ts';
import { lastTickAt } from '../../core/market/ticks.ts';
import type { RecordedTick } from '../../core/market/store.ts';

export type CompetitionRow = typeof competitions.$inferSelect;
export type EntryRow = typeof competitionEntries.$inferSelect;

export const rankingFormula = 'equity = competition account balance + margin of open competition positions + their unrealised P/L at the last price; '
  + 'rate of return = (equity − entry funds) ÷ entry funds; ranked by rate of return, ties by the earlier join';

const competitionNotFound = () => notFound('competition_not_found', 'There is no such competition.');

/** The state a competition is in at `now`: stored end states win, else the window decides. */
export function stateOf(row: CompetitionRow, now: Date): CompetitionState {
  if (row.status === 'settled' || row.status === 'cancelled' || row.status === 'ended') return row.status as CompetitionState;
  const t = now.getTime();
  if (t < row.startsAt.getTime()) return 'scheduled';
  if (t < row.endsAt.getTime()) return 'running';
  return 'ended';
}

export function statusCodeOf(state: CompetitionState): CompetitionStatusCode {
  if (state === 'scheduled') return competitionStatusCodes.scheduled;
  if (state === 'running') return competitionStatusCodes.running;
  return competitionStatusCodes.ended;
}

/** The prize of each rank: the table's rows, ranks 1.. upward. */
export function prizeOfRank(table: readonly { fromRank: number; toRank: number; amount: bigint }[], rank: number): bigint {
  for (const row of table) if (rank >= row.fromRank && rank <= row.toRank) return row.amount;
  return 0n;
}

const prizeTableOf = (row: CompetitionRow) => row.prizeTable.map((prize) => ({ ...prize, amount: BigInt(prize.amount) }));

/** What the whole table pays when every prized rank is taken. */
const prizeTotalOf = (row: CompetitionRow) =>
  prizeTableOf(row).reduce((total, prize) => total + prize.amount * BigInt(prize.toRank - prize.fromRank + 1), 0n);

export const returnPpmOf = (equity: bigint, entry: bigint) => ((equity - entry) * 1_000_000n) / entry;

function maskedName(user: { id: bigint; username: string | null; email: string | null; phone: string | null }): string {
  const base = user.username ?? user.email?.split('@')[0] ?? user.phone ?? '';
  if (base.length >= 2) return `${base.slice(0, 2)}***${base.length > 4 ? base.slice(-1) : ''}`;
  return `U***${String(user.id).slice(-2)}`;
}

async function participantCounts(db: Executor, ids: readonly bigint[]): Promise<Map<bigint, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: competitionEntries.competitionId, n: count() }).from(competitionEntries)
    .where(inArray(competitionEntries.competitionId, [...ids])).groupBy(competitionEntries.competitionId);
  return new Map(rows.map((row) => [row.id, Number(row.n)]));
}

function competitionWire(row: CompetitionRow, participants: number, scales: Map<string, number>, now: Date, lang?: string): Competition {
  const scale = scaleOf(scales, row.asset);
  const prizeScale = scaleOf(scales, row.prizeAsset);
  const state = stateOf(row, now);
  return {
    id: String(row.id), name: (lang && row.names?.[lang]) || row.name, status: statusCodeOf(state), state,
    asset: row.asset, entryAmount: formatAmount(row.entryAmount, scale), symbols: row.symbols,
    startTime: row.startsAt.getTime(), endTime: row.endsAt.getTime(), participants, maxParticipants: row.maxParticipants,
    prizeAsset: row.prizeAsset,
    prizes: prizeTableOf(row).map((prize) => ({ fromRank: prize.fromRank, toRank: prize.toRank, amount: formatAmount(prize.amount, prizeScale) })),
    prizeTotal: formatAmount(prizeTotalOf(row), prizeScale),
  };
}

// ─── Operator: create ───────────────────────────────────────────────────────────────────────────

function parsePositive(text: string, scale: number, field: string): bigint {
  const parsed = parseAmount(text, scale);
  if (!parsed.ok || parsed.atomic <= 0n) {
    throw new AppError(400, 'invalid_request', `The ${field} must be a positive number with at most ${scale} decimals.`, { field, scale });
  }
  return parsed.atomic;
}

export async function createCompetition(tx: Executor, operatorId: bigint, body: CreateCompetitionBody, now: Date): Promise<CompetitionRow> {
  const asset = body.asset ?? marginAsset;
  if (asset !== marginAsset) throw badRequest('invalid_request', `Contracts are margined in ${marginAsset}: entry funds are ${marginAsset}.`);
  const prizeAsset = body.prizeAsset ?? asset;
  const scales = await assetScales(tx);
  if (!scales.has(prizeAsset)) throw badRequest('invalid_request', `There is no asset ${prizeAsset}.`);
  if (body.endTime <= body.startTime) throw badRequest('invalid_request', 'The competition must end after it starts.');
  if (body.endTime <= now.getTime()) throw badRequest('invalid_request', 'The competition must end in the future.');
  const symbols = [...new Set(body.symbols)];
  for (const symbol of symbols) {
    if (!symbolByCode.has(symbol)) throw badRequest('invalid_request', `There is no symbol ${symbol}.`);
  }
  const entryAmount = parsePositive(body.entryAmount, scaleOf(scales, asset), 'entry amount');
  const prizes = [...body.prizes].sort((a, b) => a.fromRank - b.fromRank);
  let lastRank = 0;
  const prizeTable = prizes.map((prize: PrizeRow) => {
    if (prize.toRank < prize.fromRank || prize.fromRank <= lastRank) {
      throw badRequest('invalid_request', `Prize ranks must be ranges (from ≤ to) that do not overlap (at rank ${prize.fromRank}).`);
    }
    lastRank = prize.toRank;
    return { fromRank: prize.fromRank, toRank: prize.toRank, amount: String(parsePositive(prize.amount, scaleOf(scales, prizeAsset), 'prize')) };
  });
  const [row] = await tx.insert(competitions).values({
    name: body.name, names: body.names ?? {}, asset, entryAmount, symbols, startsAt: new Date(body.startTime), endsAt: new Date(body.endTime),
    maxParticipants: body.maxParticipants ?? 0, prizeAsset, prizeTable, status: 'scheduled', createdBy: operatorId,
    createdAt: now, updatedAt: now,
  }).returning();
  return row;
}

// ─── Reads ──────────────────────────────────────────────────────────────────────────────────────

const stateCondition = (status: 0 | 1 | -2, now: Date) => {
  const at = now.toISOString();
  if (status === 0) return sql`${competitions.status} = 'scheduled' and ${competitions.startsAt} > ${at}::timestamptz`;
  if (status === 1) return sql`${competitions.status} in ('scheduled', 'running') and ${competitions.startsAt} <= ${at}::timestamptz and ${competitions.endsAt} > ${at}::timestamptz`;
  return sql`(${competitions.status} in ('ended', 'settled') or (${competitions.status} in ('scheduled', 'running') and ${competitions.endsAt} <= ${at}::timestamptz))`;
};

export async function listCompetitions(db: Executor, query: CompetitionListQuery, userId: bigint | undefined, now: Date,
  lang?: string): Promise<PageOf<Competition>> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 10;
  const where = and(sql`${competitions.status} <> 'cancelled'`, query.status === undefined ? undefined : stateCondition(query.status, now));
  const [{ total }] = await db.select({ total: count() }).from(competitions).where(where);
  const rows = await db.select().from(competitions).where(where).orderBy(desc(competitions.startsAt), desc(competitions.id))
    .limit(pageSize).offset((pageNo - 1) * pageSize);
  const counts = await participantCounts(db, rows.map((row) => row.id));
  const scales = await assetScales(db);
  const mine = userId === undefined || rows.length === 0 ? undefined : new Set((await db.select({ id: competitionEntries.competitionId })
    .from(competitionEntries).where(and(eq(competitionEntries.userId, userId), inArray(competitionEntries.competitionId, rows.map((row) => row.id)))))
    .map((row) => row.id));
  return {
    records: rows.map((row) => ({
      ...competitionWire(row, counts.get(row.id) ?? 0, scales, now, lang), ...(mine ? { joined: mine.has(row.id) } : {}),
    })),
    total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize),
  };
}

export interface Standing {
  entry: EntryRow;
  name: string;
  equity: bigint;
  returnPpm: bigint;
  rank: number | null;
  reward: bigint;
}

/**
 * The live equity of joined entries (by the stated formula) at `nowMs`: the competition account's
 * balance (their one competition account) plus each open competition position's margin and its
 * unrealised P/L at the last recorded tick.
 */
export async function liveEquities(db: Executor, competitionId: bigint, entries: readonly EntryRow[], nowMs: number): Promise<Map<bigint, bigint>> {
  const joined = entries.filter((entry) => entry.status === 'joined');
  const equities = new Map<bigint, bigint>();
  if (joined.length === 0) return equities;
  const userIds = joined.map((entry) => entry.userId);
  const accounts = await db.select().from(ledgerAccounts).where(and(inArray(ledgerAccounts.ownerUserId, userIds),
    eq(ledgerAccounts.ledger, ledgers.real), eq(ledgerAccounts.kind, 'competition')));
  for (const entry of joined) equities.set(entry.userId, 0n);
  for (const account of accounts) {
    if (account.ownerUserId === null || account.asset !== marginAsset) continue;
    equities.set(account.ownerUserId, (equities.get(account.ownerUserId) ?? 0n) + balanceOf(account).postedAtomic);
  }
  const open = await db.select().from(tradePositions).where(and(eq(tradePositions.competitionId, competitionId),
    eq(tradePositions.status, 'running'), inArray(tradePositions.userId, userIds)));
  const prices = new Map<string, bigint | undefined>();
  for (const row of open) {
    if (!prices.has(row.symbol)) prices.set(row.symbol, (await lastTickAt(db, row.symbol, nowMs))?.priceUnits);
    const price = prices.get(row.symbol);
    let value = row.margin;
    if (price !== undefined) {
      const direction = row.direction as Direction;
      value += math.settle(unitsOf(row.symbol), {
        direction, quantity: row.quantity, entryPrice: row.openPrice, margin: row.margin, openFee: row.openFee, feePpm: row.feePpm,
      }, math.exitPrice(direction, price, row.spreadUnits)).pnl;
    }
    equities.set(row.userId, (equities.get(row.userId) ?? 0n) + value);
  }
  return equities;
}

const byReturn = (a: Standing, b: Standing) => (a.returnPpm === b.returnPpm
  ? (a.entry.joinedAt.getTime() - b.entry.joinedAt.getTime() || (a.entry.id < b.entry.id ? -1 : 1))
  : (a.returnPpm > b.returnPpm ? -1 : 1));

/**
 * The standings: once the ranking is frozen (entries ended), their stored rank and figures; before,
 * the live ranking of joined entries. Exited entries come last, without rank.
 */
export async function standings(db: Executor, competition: CompetitionRow, nowMs: number): Promise<Standing[]> {
  const rows = await db.select({ entry: competitionEntries, user: { id: users.id, username: users.username, email: users.email, phone: users.phone } })
    .from(competitionEntries).innerJoin(users, eq(users.id, competitionEntries.userId))
    .where(eq(competitionEntries.competitionId, competition.id)).orderBy(asc(competitionEntries.id));
  const equities = await liveEquities(db, competition.id, rows.map((row) => row.entry), nowMs);
  const table = prizeTableOf(competition);
  const ranked: Standing[] = [];
  const exited: Standing[] = [];
  for (const { entry, user } of rows) {
    const name = maskedName(user);
    if (entry.status === 'joined') {
      const equity = equities.get(entry.userId) ?? 0n;
      ranked.push({ entry, name, equity, returnPpm: returnPpmOf(equity, entry.entryAmount), rank: null, reward: 0n });
    } else {
      const standing = { entry, name, equity: entry.finalEquity ?? 0n, returnPpm: entry.returnPpm ?? 0n, rank: entry.rank, reward: entry.reward };
      (entry.status === 'ended' ? ranked : exited).push(standing);
    }
  }
  ranked.sort(byReturn);
  ranked.forEach((standing, index) => {
    if (standing.entry.status === 'joined') {
      standing.rank = index + 1;
      standing.reward = prizeOfRank(table, index + 1);
    }
  });
  if (ranked.every((standing) => standing.entry.status === 'ended') && ranked.length > 0) {
    ranked.sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
  }
  return [...ranked, ...exited];
}

function entryStatusCode(entry: EntryRow, competition: CompetitionRow, now: Date): CompetitionStatusCode {
  if (entry.status === 'exited') return competitionStatusCodes.exited;
  if (entry.status === 'ended') return competitionStatusCodes.ended;
  return statusCodeOf(stateOf(competition, now));
}

function entryWire(standing: Standing, competition: CompetitionRow, scales: Map<string, number>, now: Date, lang?: string): CompetitionEntry {
  const { entry } = standing;
  const scale = scaleOf(scales, competition.asset);
  return {
    id: String(entry.id), competitionId: String(competition.id), name: (lang && competition.names?.[lang]) || competition.name,
    status: entryStatusCode(entry, competition, now), state: entry.status as EntryState,
    entryAmount: formatAmount(entry.entryAmount, scale), asset: competition.asset,
    equity: formatAmount(standing.equity, scale), returnRate: ratePercentOfPpm(standing.returnPpm),
    rank: entry.status === 'exited' ? null : standing.rank, reward: formatAmount(standing.reward, scaleOf(scales, competition.prizeAsset)),
    joinTime: entry.joinedAt.getTime(), exitTime: entry.exitedAt?.getTime() ?? null,
    startTime: competition.startsAt.getTime(), endTime: competition.endsAt.getTime(), clientOrderId: entry.clientOrderId,
  };
}

function rankingRow(standing: Standing, competition: CompetitionRow, scales: Map<string, number>, userId?: bigint): RankingRow {
  return {
    rank: standing.rank ?? 0, name: standing.name, equity: formatAmount(standing.equity, scaleOf(scales, competition.asset)),
    returnRate: ratePercentOfPpm(standing.returnPpm), reward: formatAmount(standing.reward, scaleOf(scales, competition.prizeAsset)),
    joinTime: standing.entry.joinedAt.getTime(), ...(userId !== undefined && standing.entry.userId === userId ? { mine: true } : {}),
  };
}

/** How many ranking rows a detail answers. */
export const rankingRowsMax = 100;

export async function competitionDetail(db: Executor, id: bigint, userId: bigint | undefined, now: Date, lang?: string): Promise<CompetitionDetail> {
  const [row] = await db.select().from(competitions).where(eq(competitions.id, id)).limit(1);
  if (!row || row.status === 'cancelled') throw competitionNotFound();
  const scales = await assetScales(db);
  const all = await standings(db, row, now.getTime());
  const ranked = all.filter((standing) => standing.rank !== null);
  const mine = userId === undefined ? undefined : all.find((standing) => standing.entry.userId === userId);
  return {
    ...competitionWire(row, all.length, scales, now, lang),
    ...(userId !== undefined ? { joined: mine !== undefined, myEntry: mine ? entryWire(mine, row, scales, now, lang) : null } : {}),
    ranking: ranked.slice(0, rankingRowsMax).map((standing) => rankingRow(standing, row, scales, userId)),
    formula: rankingFormula,
  };
}

export async function myEntries(db: Executor, userId: bigint, query: MyEntriesQuery, now: Date, lang?: string): Promise<PageOf<CompetitionEntry>> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 10;
  const [{ total }] = await db.select({ total: count() }).from(competitionEntries).where(eq(competitionEntries.userId, userId));
  const rows = await db.select({ entry: competitionEntries, competition: competitions }).from(competitionEntries)
    .innerJoin(competitions, eq(competitions.id, competitionEntries.competitionId))
    .where(eq(competitionEntries.userId, userId)).orderBy(desc(competitionEntries.id)).limit(pageSize).offset((pageNo - 1) * pageSize);
  const scales = await assetScales(db);
  const records: CompetitionEntry[] = [];
  for (const { entry, competition } of rows) {
    const standing = entry.status === 'joined'
      ? (await standings(db, competition, now.getTime())).find((each) => each.entry.id === entry.id)!
      : { entry, name: '', equity: entry.finalEquity ?? 0n, returnPpm: entry.returnPpm ?? 0n, rank: entry.rank, reward: entry.reward };
    const wire = entryWire(standing, competition, scales, now, lang);
    if (entry.status === 'joined') {
      const [account] = await db.select().from(ledgerAccounts).where(and(eq(ledgerAccounts.ownerUserId, userId),
        eq(ledgerAccounts.ledger, ledgers.real), eq(ledgerAccounts.asset, competition.asset), eq(ledgerAccounts.kind, 'competition'))).limit(1);
      wire.available = formatAmount(account ? balanceOf(account).availableAtomic : 0n, scaleOf(scales, competition.asset));
    }
    records.push(wire);
  }
  return { records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}

/** One entry on the wire, as its owner sees it. */
export async function myEntry(db: Executor, userId: bigint, entryId: bigint, now: Date, lang?: string): Promise<CompetitionEntry> {
  const [found] = await db.select({ entry: competitionEntries, competition: competitions }).from(competitionEntries)
    .innerJoin(competitions, eq(competitions.id, competitionEntries.competitionId)).where(eq(competitionEntries.id, entryId)).limit(1);
  assert(found && found.entry.userId === userId, `entry ${entryId} is the user's`);
  const standing = (await standings(db, found.competition, now.getTime())).find((each) => each.entry.id === entryId)!;
  return entryWire(standing, found.competition, await assetScales(db), now, lang);
}

// ─── Join and exit ──────────────────────────────────────────────────────────────────────────────

async function lockCompetition(tx: Executor, id: bigint): Promise<CompetitionRow | undefined> {
  const [row] = await tx.select().from(competitions).where(eq(competitions.id, id)).for('update').limit(1);
  return row;
}

async function entryOfClientOrder(db: Executor, userId: bigint, clientOrderId: string): Promise<EntryRow | undefined> {
  const [row] = await db.select().from(competitionEntries)
    .where(and(eq(competitionEntries.userId, userId), eq(competitionEntries.clientOrderId, clientOrderId))).limit(1);
  return row;
}

function replayOf(entry: EntryRow, competitionId: bigint): EntryRow {
  if (entry.competitionId !== competitionId) {
    throw new AppError(409, 'client_order_id_reused', 'This order id was used for another competition. Please send a new one.');
  }
  return entry;
}

export async function joinCompetition(db: Db, clock: Clock, userId: bigint, competitionId: bigint, clientOrderId: string): Promise<EntryRow> {
  const earlier = await entryOfClientOrder(db, userId, clientOrderId);
  if (earlier) return replayOf(earlier, competitionId);
  const now = clock.now();
  const joined = await db.transaction(async (tx) => {
    const competition = await lockCompetition(tx, competitionId);
    if (!competition || competition.status === 'cancelled') throw competitionNotFound();
    // A retry that waited on the lock behind its first attempt answers that attempt's entry.
    const again = await entryOfClientOrder(tx, userId, clientOrderId);
    if (again) return replayOf(again, competitionId);
    const state = stateOf(competition, now);
    if (state !== 'scheduled' && state !== 'running') throw conflict('competition_closed', 'This competition is closed to new entrants.');
    const [already] = await tx.select({ id: competitionEntries.id }).from(competitionEntries)
      .where(and(eq(competitionEntries.competitionId, competitionId), eq(competitionEntries.userId, userId))).limit(1);
    if (already) throw conflict('competition_joined_already', 'You have already joined this competition.');
    const [busy] = await tx.select({ id: competitionEntries.competitionId }).from(competitionEntries)
      .where(and(eq(competitionEntries.userId, userId), eq(competitionEntries.status, 'joined'))).limit(1);
    if (busy) {
      throw new AppError(409, 'competition_busy', 'You are in another competition; exit it or wait for its end before joining this one.',
        { competitionId: String(busy.id) });
    }
    if (competition.maxParticipants > 0) {
      const [{ n }] = await tx.select({ n: count() }).from(competitionEntries).where(eq(competitionEntries.competitionId, competitionId));
      if (Number(n) >= competition.maxParticipants) throw conflict('competition_full', 'This competition is full.');
    }
    const [entry] = await tx.insert(competitionEntries).values({
      competitionId, userId, clientOrderId, entryAmount: competition.entryAmount, status: 'joined', joinedAt: now,
    }).returning();
    const [spot, account] = await openAccounts(tx, [
      { ledger: 'real', asset: competition.asset, kind: 'spot', ownerUserId: userId },
      { ledger: 'real', asset: competition.asset, kind: 'competition', ownerUserId: userId },
    ]);
    const result = await postTransfers(tx, [{
      id: `ce-${entry.id}`, kind: 'competition_entry', reference: `competition-entry:${entry.id}`, amountAtomic: competition.entryAmount,
      debitAccountId: spot, creditAccountId: account, remark: competition.name,
    }], clock);
    if (!result.ok) {
      if (result.refusal === 'exceeds_credits') {
        const scale = scaleOf(await assetScales(tx), competition.asset);
        throw new AppError(400, 'balance_insufficient',
          `Your ${competition.asset} balance does not cover the entry funds of ${formatAmount(competition.entryAmount, scale)} ${competition.asset}.`);
      }
      throw new Error(`competition entry refused by the ledger: ${result.refusal}`);
    }
    return entry;
  }).catch(async (error: unknown) => {
    // The same client order id committed meanwhile (a concurrent retry): answer that entry.
    const first = await entryOfClientOrder(db, userId, clientOrderId);
    if (first && isUniqueViolation(error)) return replayOf(first, competitionId);
    throw error;
  });
  return joined;
}

function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as Error & { code?: string }).code === '23505') return true;
  }
  return false;
}

/** The tick a close-out settles a position at: the exit's last tick, or the end tick of the end. */
export type CloseOutTick = (position: typeof tradePositions.$inferSelect) => Promise<RecordedTick>;

/**
 * Closes the entry's open competition positions (each at the tick `tickOf` names, for `reason`,
 * through the normal close path), then freezes its equity and return and moves the whole
 * competition account to spot. Inside the caller's transaction, the entry locked by the caller.
 */
export async function closeOutEntry(tx: Tx, clock: Clock, competition: CompetitionRow, entry: EntryRow, tickOf: CloseOutTick,
  reason: 'user' | 'competition_end'): Promise<{ equity: bigint; returnPpm: bigint }> {
  const open = await tx.select().from(tradePositions).where(and(eq(tradePositions.competitionId, competition.id),
    eq(tradePositions.userId, entry.userId), eq(tradePositions.status, 'running'))).orderBy(tradePositions.id).for('update');
  for (const row of open) await settleLocked(tx, clock, row, await tickOf(row), reason);
  const [spot, account] = await openAccounts(tx, [
    { ledger: 'real', asset: competition.asset, kind: 'spot', ownerUserId: entry.userId },
    { ledger: 'real', asset: competition.asset, kind: 'competition', ownerUserId: entry.userId },
  ]);
  const [accountRow] = await tx.select().from(ledgerAccounts).where(eq(ledgerAccounts.id, account)).limit(1);
  const equity = balanceOf(accountRow).postedAtomic;
  if (equity > 0n) {
    const result = await postTransfers(tx, [{
      id: `cr-${entry.id}`, kind: 'competition_return', reference: `competition-entry:${entry.id}`, amountAtomic: equity,
      debitAccountId: account, creditAccountId: spot, remark: competition.name,
    }], clock);
    if (!result.ok) throw new Error(`competition return refused by the ledger: ${result.refusal}`);
  }
  return { equity, returnPpm: returnPpmOf(equity, entry.entryAmount) };
}

export async function exitCompetition(db: Db, clock: Clock, userId: bigint, competitionId: bigint): Promise<EntryRow> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [competition] = await tx.select().from(competitions).where(eq(competitions.id, competitionId)).limit(1);
    if (!competition || competition.status === 'cancelled') throw competitionNotFound();
    const [entry] = await tx.select().from(competitionEntries)
      .where(and(eq(competitionEntries.competitionId, competitionId), eq(competitionEntries.userId, userId))).for('update').limit(1);
    const state = stateOf(competition, now);
    if (state === 'ended' || state === 'settled' || entry?.status === 'ended') {
      throw conflict('competition_ended', 'This competition has ended: your funds and result come back with the final ranking.');
    }
    if (!entry || entry.status !== 'joined') throw conflict('competition_not_joined', 'You are not in this competition.');
    const lastTick: CloseOutTick = async (row) => {
      const tick = await lastTickAt(tx, row.symbol, Math.max(now.getTime(), row.createdAt.getTime()));
      assert(tick, `a tick of ${row.symbol} to close position ${row.id} at`);
      return tick;
    };
    const { equity, returnPpm } = await closeOutEntry(tx, clock, competition, entry, lastTick, 'user');
    const [updated] = await tx.update(competitionEntries).set({ status: 'exited', finalEquity: equity, returnPpm, exitedAt: now })
      .where(eq(competitionEntries.id, entry.id)).returning();
    return updated;
  });
}

/** The entries of ended competitions that hold a rank (for the settle job and the admin). */
export const rankedEntries = (db: Executor, competitionId: bigint) => db.select().from(competitionEntries)
  .where(and(eq(competitionEntries.competitionId, competitionId), isNotNull(competitionEntries.rank))).orderBy(asc(competitionEntries.rank));

// ─── Operator reads ─────────────────────────────────────────────────────────────────────────────

export async function adminCompetitions(db: Executor, query: { pageNo?: number; pageSize?: number }, now: Date): Promise<PageOf<Competition>> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  const [{ total }] = await db.select({ total: count() }).from(competitions);
  const rows = await db.select().from(competitions).orderBy(desc(competitions.id)).limit(pageSize).offset((pageNo - 1) * pageSize);
  const counts = await participantCounts(db, rows.map((row) => row.id));
  const scales = await assetScales(db);
  return {
    records: rows.map((row) => competitionWire(row, counts.get(row.id) ?? 0, scales, now)),
    total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize),
  };
}

export async function competitionRowById(db: Executor, id: bigint): Promise<CompetitionRow> {
  const [row] = await db.select().from(competitions).where(eq(competitions.id, id)).limit(1);
  if (!row) throw competitionNotFound();
  return row;
}

export function competitionAdminWire(row: CompetitionRow, participants: number, scales: Map<string, number>, now: Date): Competition {
  return competitionWire(row, participants, scales, now);
}
