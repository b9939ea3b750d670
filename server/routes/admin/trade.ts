// /api/admin/trade/*: the trading settings an operator edits (each symbol's contract settings,
// each symbol's second-contract durations, the flash swap) and the trades an operator reads
// (positions, second contracts, swaps, each with its receipt). Reads are open to admin and
// finance operators, changes to admins only; every change is audited with the settings before
// and after, in the same transaction. There is no call here that sets a price or decides an
// outcome (DESIGN §1): every outcome follows from recorded ticks.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { and, count, desc, eq, inArray, or, type SQL } from 'drizzle-orm';
import { SymbolCode } from '../../../src/api/contract/market.ts';
import {
  AdminTradeListQuery, SecondSetBody, SwapSettingsBody, SymbolSettingsBody, tradeAdminPaths,
} from '../../../src/api/contract/trading.ts';
import { recordAudit } from '../../domain/kernel/audit.ts';
import { secondContractOrders, swapOrders, tradePositions, users } from '../../db/schema.ts';
import type { Executor } from '../../db/client.ts';
import { ledgers } from '../../domain/kernel/ledger/accounts.ts';
import { positionToWire, tickIdsOf } from '../../domain/core/trading/positionWire.ts';
import { secondOrdersToWire } from '../../domain/core/trading/secondContracts.ts';
import { swapRecordsOf } from '../../domain/core/trading/swap.ts';
import { ticksByIds } from '../../domain/core/market/ticks.ts';
import {
  listSecondSets, listSymbolSettings, readSwapSettings, updateSecondSet, updateSwapSettings, updateSymbolSettings,
} from '../../domain/core/trading/settingsAdmin.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

const SymbolParams = Type.Object({ symbol: SymbolCode }, { additionalProperties: false });
type SymbolParams = Static<typeof SymbolParams>;

const readers = ['admin', 'finance'] as const;
const writers = ['admin'] as const;

export function tradeAdminRoutes(app: FastifyInstance, services: Services) {
  const now = () => services.clock.now();

  app.get(tradeAdminPaths.symbolSettings, { preHandler: operatorOnly(readers) },
    async () => ok(await listSymbolSettings(services.db, now().getTime())));

  const putSymbol = async (request: { params: SymbolParams; body: SymbolSettingsBody; operator?: { id: bigint } }) =>
    ok(await services.db.transaction(async (tx) => {
      const { before, after } = await updateSymbolSettings(tx, request.params.symbol, request.body, now());
      await recordAudit(tx, {
        operatorId: request.operator!.id, action: 'trade.symbol_settings', targetType: 'trade_symbol', targetId: request.params.symbol,
        before, after,
      }, services.clock);
      return after;
    }));
  const symbolOptions = { schema: { params: SymbolParams, body: SymbolSettingsBody }, preHandler: operatorOnly(writers) };
  app.post<{ Params: SymbolParams; Body: SymbolSettingsBody }>(tradeAdminPaths.symbolSetting, symbolOptions, putSymbol);
  app.put<{ Params: SymbolParams; Body: SymbolSettingsBody }>(tradeAdminPaths.symbolSetting, symbolOptions, putSymbol);

  app.get(tradeAdminPaths.secondSets, { preHandler: operatorOnly(readers) },
    async () => ok(await listSecondSets(services.db, now().getTime())));

  const putSecond = async (request: { params: SymbolParams; body: SecondSetBody; operator?: { id: bigint } }) =>
    ok(await services.db.transaction(async (tx) => {
      const { before, after } = await updateSecondSet(tx, request.params.symbol, request.body, now());
      await recordAudit(tx, {
        operatorId: request.operator!.id, action: 'trade.second_set', targetType: 'second_contract_set', targetId: request.params.symbol,
        before, after,
      }, services.clock);
      return after;
    }));
  const secondOptions = { schema: { params: SymbolParams, body: SecondSetBody }, preHandler: operatorOnly(writers) };
  app.post<{ Params: SymbolParams; Body: SecondSetBody }>(tradeAdminPaths.secondSet, secondOptions, putSecond);
  app.put<{ Params: SymbolParams; Body: SecondSetBody }>(tradeAdminPaths.secondSet, secondOptions, putSecond);

  app.get(tradeAdminPaths.swapSettings, { preHandler: operatorOnly(readers) },
    async () => ok(await readSwapSettings(services.db)));

  const putSwap = async (request: { body: SwapSettingsBody; operator?: { id: bigint } }) =>
    ok(await services.db.transaction(async (tx) => {
      const { before, after } = await updateSwapSettings(tx, request.body, now());
      await recordAudit(tx, {
        operatorId: request.operator!.id, action: 'trade.swap_settings', targetType: 'swap_settings', targetId: '1', before, after,
      }, services.clock);
      return after;
    }));
  const swapOptions = { schema: { body: SwapSettingsBody }, preHandler: operatorOnly(writers) };
  app.post<{ Body: SwapSettingsBody }>(tradeAdminPaths.swapSettings, swapOptions, putSwap);
  app.put<{ Body: SwapSettingsBody }>(tradeAdminPaths.swapSettings, swapOptions, putSwap);

  const listOptions = { schema: { querystring: AdminTradeListQuery }, preHandler: operatorOnly(readers) };
  app.get<{ Querystring: AdminTradeListQuery }>(tradeAdminPaths.positions, listOptions,
    async (request) => ok(await listPositions(services.db, request.query)));
  app.get<{ Querystring: AdminTradeListQuery }>(tradeAdminPaths.secondOrders, listOptions,
    async (request) => ok(await listSecondOrders(services.db, request.query)));
  app.get<{ Querystring: AdminTradeListQuery }>(tradeAdminPaths.swaps, listOptions,
    async (request) => ok(await listSwaps(services.db, request.query)));
}

// ─── The lists: newest first, across users, each record with its owner and its receipt ─────

const pageOf = (query: AdminTradeListQuery) => ({ pageNo: query.pageNo ?? 1, pageSize: query.pageSize ?? 20 });

/** Who owns each row: the e-mail, the phone or the guest's user name, as the other operator lists show it. */
async function ownersOf(db: Executor, userIds: bigint[]): Promise<Map<bigint, string>> {
  if (userIds.length === 0) return new Map();
  const owners = await db.select({ id: users.id, email: users.email, phone: users.phone, code: users.phoneCountryCode, username: users.username })
    .from(users).where(inArray(users.id, [...new Set(userIds)]));
  return new Map(owners.map((owner) => [owner.id, owner.email ?? (owner.phone ? `+${owner.code} ${owner.phone}` : owner.username ?? '')]));
}

const positionStatuses = new Set(['running', 'settling', 'closed']);
const secondStatuses = new Set(['open', 'won', 'lost', 'draw']);

async function listPositions(db: Executor, query: AdminTradeListQuery) {
  const { pageNo, pageSize } = pageOf(query);
  const conditions: SQL[] = [eq(tradePositions.ledger, query.demo ? ledgers.demo : ledgers.real)];
  if (query.userId) conditions.push(eq(tradePositions.userId, BigInt(query.userId)));
  if (query.symbol) conditions.push(eq(tradePositions.symbol, query.symbol));
  if (query.status) {
    if (!positionStatuses.has(query.status)) return { records: [], total: 0, size: pageSize, current: pageNo, pages: 0 };
    conditions.push(eq(tradePositions.status, query.status));
  }
  const where = and(...conditions);
  const [{ total }] = await db.select({ total: count() }).from(tradePositions).where(where);
  const rows = await db.select().from(tradePositions).where(where).orderBy(desc(tradePositions.id)).limit(pageSize).offset((pageNo - 1) * pageSize);
  const ticks = await ticksByIds(db, tickIdsOf(rows));
  const owners = await ownersOf(db, rows.map((row) => row.userId));
  const records = rows.map((row) => ({ ...positionToWire(row, ticks), userId: String(row.userId), account: owners.get(row.userId) ?? '' }));
  return { records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}

async function listSecondOrders(db: Executor, query: AdminTradeListQuery) {
  const { pageNo, pageSize } = pageOf(query);
  const conditions: SQL[] = [eq(secondContractOrders.ledger, query.demo ? ledgers.demo : ledgers.real)];
  if (query.userId) conditions.push(eq(secondContractOrders.userId, BigInt(query.userId)));
  if (query.symbol) conditions.push(eq(secondContractOrders.symbol, query.symbol));
  if (query.status === 'settled') conditions.push(inArray(secondContractOrders.status, ['won', 'lost', 'draw']));
  else if (query.status) {
    if (!secondStatuses.has(query.status)) return { records: [], total: 0, size: pageSize, current: pageNo, pages: 0 };
    conditions.push(eq(secondContractOrders.status, query.status));
  }
  const where = and(...conditions);
  const [{ total }] = await db.select({ total: count() }).from(secondContractOrders).where(where);
  const rows = await db.select().from(secondContractOrders).where(where).orderBy(desc(secondContractOrders.id))
    .limit(pageSize).offset((pageNo - 1) * pageSize);
  const wire = await secondOrdersToWire(db, rows);
  const owners = await ownersOf(db, rows.map((row) => row.userId));
  const records = rows.map((row, index) => ({ ...wire[index], userId: String(row.userId), account: owners.get(row.userId) ?? '' }));
  return { records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}

/** Swaps use real funds only (a demo filter finds none); `symbol` here names a currency swapped from or to. */
async function listSwaps(db: Executor, query: AdminTradeListQuery) {
  const { pageNo, pageSize } = pageOf(query);
  if (query.demo || query.status) return { records: [], total: 0, size: pageSize, current: pageNo, pages: 0 };
  const conditions: SQL[] = [];
  if (query.userId) conditions.push(eq(swapOrders.userId, BigInt(query.userId)));
  if (query.symbol) conditions.push(or(eq(swapOrders.fromAsset, query.symbol), eq(swapOrders.toAsset, query.symbol))!);
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ total }] = await db.select({ total: count() }).from(swapOrders).where(where);
  const rows = await db.select().from(swapOrders).where(where).orderBy(desc(swapOrders.id)).limit(pageSize).offset((pageNo - 1) * pageSize);
  const wire = await swapRecordsOf(db, rows);
  const owners = await ownersOf(db, rows.map((row) => row.userId));
  const records = rows.map((row, index) => ({ ...wire[index], userId: String(row.userId), account: owners.get(row.userId) ?? '' }));
  return { records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}
