// Proof of liabilities: the engine instance publishes, daily and on an operator's request, the root
// of a Merkle sum tree over every user's real balances per asset (src/api/contract/liabilities.ts
// documents the hashing; src/api/contract/liabilityTree.ts builds and verifies it). A user reads
// their own leaf and the siblings up to the root, and nothing of anyone else but sibling hashes
// and sums.
//
// What is counted as owed to a user, per asset: the posted balance of their spot, frozen, position
// margin and product holding accounts in the real ledger. A withdrawal under review is still owed
// (its pending hold has not left the spot account's posted balance). Loan accounts are left out:
// a loan is what the user owes the platform, not what the platform owes the user, and netting it
// against holdings would let a debt hide a liability. Demo balances are never counted.
//
// Who is in the tree: every registered (non-guest) user at the moment the balances are read, with
// zeros where they hold nothing, and any guest holding real money. The balances are read by one
// SELECT, so on PostgreSQL they are one consistent snapshot. Padding leaves (zero, salted, tagged
// apart from users' leaves) bring the bottom level to a power of two, so the published leaf count
// does not say how many users there are; they are shuffled in with the users' leaves.
import { randomBytes, randomInt } from 'node:crypto';
import { and, asc, count, desc, eq, ne, or, sql } from 'drizzle-orm';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  bottomNode, fromHex, leafIdOf, padNode, paddedLeafCount, parentNode, rootHash, toHex,
  type TreeAsset, type TreeBottomInput, type TreeLeafInput, type TreeNode,
} from '../../../../src/api/contract/liabilityTree.ts';
import type {
  LiabilityProofResult, LiabilityRoot, LiabilityRootPage, LiabilityRootsQuery, LiabilityTrigger, ProductCoverage,
} from '../../../../src/api/contract/liabilities.ts';
import { formatAmount } from '../../../../src/api/contract/amounts.ts';
import { ledgerAssets, liabilityLeaves, liabilityNodes, liabilityRoots, products, users as usersTable } from '../../../db/schema.ts';
import type { Db, Executor } from '../../../db/client.ts';
import { recordAudit } from '../../kernel/audit.ts';
import type { Clock } from '../../../lib/time.ts';

/** The user account kinds whose balances the platform owes (see the comment at the top). */
export const liabilityAccountKinds = ['spot', 'frozen', 'position_margin', 'product_holdings'] as const;

/** Rows per INSERT when a tree is stored. */
const insertBatch = 500;
/** Hashes between two yields to the event loop while a tree is built (the leader also runs the market engine). */
const hashesPerSlice = 2_000;

/**
 * The same levels as liabilityTree.ts's buildLevels, built in slices so that a tree of a hundred
 * thousand users (seconds of hashing) never holds the event loop for more than a few milliseconds.
 */
export async function buildLevelsInSlices(assetCount: number, leaves: readonly TreeBottomInput[]): Promise<TreeNode[][]> {
  let hashed = 0;
  const slice = async () => {
    hashed += 1;
    if (hashed % hashesPerSlice === 0) await yieldToEventLoop();
  };
  const bottom: TreeNode[] = [];
  for (const leaf of leaves) {
    bottom.push(bottomNode(assetCount, leaf));
    await slice();
  }
  const levels: TreeNode[][] = [bottom.length ? bottom : [padNode(assetCount)]];
  while (levels[levels.length - 1].length > 1) {
    const level = levels[levels.length - 1];
    const next: TreeNode[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(parentNode(level[i], level[i + 1] ?? padNode(assetCount)));
      await slice();
    }
    levels.push(next);
  }
  return levels;
}

export interface PublishOptions {
  clock: Clock;
  trigger: LiabilityTrigger;
  /** The operator who asked (audited); absent for the daily publication. */
  operatorId?: bigint;
  /** 32 random bytes per leaf (padding leaves too); tests may fix them. */
  randomSalt?: () => Uint8Array;
  /** A random integer in [0, max): the shuffle of the leaves. */
  randomBelow?: (max: number) => number;
}


const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** Every user to count, with the summed posted balance of each counted asset (atomic units). */
async function readBalances(db: Executor): Promise<{ assets: TreeAsset[]; users: Map<bigint, Map<string, bigint>> }> {
  const kinds = sql.join(liabilityAccountKinds.map((kind) => sql`${kind}`), sql`, `);
  const rows = await db.execute(sql`
    select 'asset' as what, assets.code as asset, assets.scale::int as scale, null::text as user_id, null::text as balance
      from ledger_assets assets
    union all
    select 'user', a.asset, null, u.id::text, a.balance::text from users u
      left join lateral (
        select acc.asset, sum(acc.credits_posted - acc.debits_posted) as balance from ledger_accounts acc
         where acc.owner_user_id = u.id and acc.ledger = 1 and acc.kind in (${kinds})
         group by acc.asset
      ) a on true
     where not u.is_guest or a.asset is not null`);
  const assets: TreeAsset[] = [];
  const users = new Map<bigint, Map<string, bigint>>();
  for (const row of rowsOf(rows) as { what: string; asset: string | null; scale: number | null; user_id: string | null; balance: string | null }[]) {
    if (row.what === 'asset') {
      assets.push({ currency: row.asset!, scale: Number(row.scale) });
      continue;
    }
    const userId = BigInt(row.user_id!);
    const balances = users.get(userId) ?? new Map<string, bigint>();
    if (row.asset !== null && row.balance !== null) balances.set(row.asset, BigInt(row.balance));
    users.set(userId, balances);
  }
  assets.sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
  return { assets, users };
}

/** PGlite answers `{rows}`, node-postgres a result with `rows` too; either way the rows. */
function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

const sumsText = (sums: readonly bigint[]) => sums.map((sum) => sum.toString());

function toRoot(row: typeof liabilityRoots.$inferSelect): LiabilityRoot {
  const assets = row.assets as TreeAsset[];
  const totals = row.totals as string[];
  return {
    id: row.id.toString(),
    time: row.publishedAt.getTime(),
    root: row.root,
    leafCount: row.leafCount,
    totals: assets.map((asset, i) => ({ currency: asset.currency, scale: asset.scale, total: formatAmount(BigInt(totals[i]), asset.scale) })),
    trigger: row.trigger as LiabilityTrigger,
  };
}

/**
 * Reads every counted balance, builds the tree over freshly salted, shuffled leaves and stores the
 * root, the nodes and the leaves in one transaction (with its audit record when an operator asked).
 * A daily publication for a UTC day that already has one is refused by the unique index; the
 * caller (the daily timer) treats that as done.
 */
export async function publishLiabilities(db: Db, options: PublishOptions): Promise<LiabilityRoot> {
  const randomSalt = options.randomSalt ?? (() => new Uint8Array(randomBytes(32)));
  const randomBelow = options.randomBelow ?? ((max: number) => randomInt(max));
  // One SELECT reads every balance (a consistent snapshot on its own), the tree is built outside
  // any transaction (on the embedded database a long one would hold up every other request), and
  // only the writes share one.
  const publishedAt = options.clock.now();
  const { assets, users } = await readBalances(db);
  const entries: Array<(TreeLeafInput & { userId: bigint }) | { padding: true; salt: Uint8Array }> = [];
  for (const [userId, balances] of users) {
    const salt = randomSalt();
    const balancesInOrder = assets.map((asset) => balances.get(asset.currency) ?? 0n);
    if (balancesInOrder.some((balance) => balance < 0n)) throw new Error(`user ${userId} has a negative counted balance`);
    entries.push({ userId, salt, leafId: leafIdOf(salt, userId.toString()), balances: balancesInOrder });
    if (entries.length % hashesPerSlice === 0) await yieldToEventLoop();
  }
  const leafCount = paddedLeafCount(entries.length);
  while (entries.length < leafCount) entries.push({ padding: true, salt: randomSalt() });
  // Fisher–Yates: the position of a leaf says nothing about who it is, when they joined, or whether
  // it is padding at all.
  for (let i = entries.length - 1; i > 0; i -= 1) {
    const j = randomBelow(i + 1);
    [entries[i], entries[j]] = [entries[j], entries[i]];
  }
  const levels = await buildLevelsInSlices(assets.length, entries);
  const top = levels[levels.length - 1][0];
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(liabilityRoots).values({
      root: toHex(rootHash(assets, top)),
      leafCount,
      assets,
      totals: sumsText(top.sums),
      trigger: options.trigger,
      operatorId: options.operatorId ?? null,
      day: utcDay(publishedAt),
      publishedAt,
    }).returning();
    const nodeRows = levels.flatMap((level, levelIndex) => level.map((node, position) => ({
      rootId: row.id, level: levelIndex, position, hash: toHex(node.hash), sums: sumsText(node.sums),
    })));
    for (let i = 0; i < nodeRows.length; i += insertBatch) await tx.insert(liabilityNodes).values(nodeRows.slice(i, i + insertBatch));
    // Only users' leaves are kept as leaves (a user asks for their own); padding leaves live on as
    // nodes of the bottom level, which is all a sibling on someone's path needs.
    const leafRows = entries.flatMap((entry, position) => ('padding' in entry ? [] : [{
      rootId: row.id, userId: entry.userId, position, salt: toHex(entry.salt), leafId: toHex(entry.leafId),
    }]));
    for (let i = 0; i < leafRows.length; i += insertBatch) await tx.insert(liabilityLeaves).values(leafRows.slice(i, i + insertBatch));
    const published = toRoot(row);
    if (options.operatorId !== undefined) {
      await recordAudit(tx, {
        operatorId: options.operatorId, action: 'liabilities.publish', targetType: 'liability_root', targetId: row.id,
        after: { root: published.root, leafCount: published.leafCount, totals: published.totals, time: published.time },
      }, options.clock);
    }
    return published;
  });
}

/** The newest publication, or undefined before the first. */
export async function latestRoot(db: Executor) {
  const [row] = await db.select().from(liabilityRoots).orderBy(desc(liabilityRoots.publishedAt), desc(liabilityRoots.id)).limit(1);
  return row;
}

/**
 * Coverage of every product that is not a draft, read live from the products' figures (issue 22):
 * (reserve + principal) ÷ (principal + owed) as a percent with 2 decimals rounded down, "∞" when
 * nothing is owed and no principal held (the formula products show on their detail page).
 */
export async function productCoverage(db: Executor): Promise<ProductCoverage[]> {
  const rows = await db.select({
    id: products.id, name: products.name, asset: products.asset, payoutAsset: products.payoutAsset,
    reserve: products.reserve, owed: products.owed, principal: products.principal,
  }).from(products).where(ne(products.status, 'draft')).orderBy(asc(products.id));
  if (rows.length === 0) return [];
  const scales = new Map((await db.select({ code: ledgerAssets.code, scale: ledgerAssets.scale }).from(ledgerAssets))
    .map((row) => [row.code, row.scale]));
  return rows.map((row) => {
    const denominator = row.principal + row.owed;
    return {
      id: row.id.toString(), name: row.name, asset: row.payoutAsset,
      reserve: formatAmount(row.reserve, scales.get(row.payoutAsset) ?? 0),
      owed: formatAmount(row.owed, scales.get(row.payoutAsset) ?? 0),
      principal: formatAmount(row.principal, scales.get(row.asset) ?? 0),
      coverage: denominator === 0n ? '∞' : formatAmount(((row.reserve + row.principal) * 10_000n) / denominator, 2),
    };
  });
}

/** Published roots, newest first, with every product's coverage now (when there are products). */
export async function listRoots(db: Executor, query: LiabilityRootsQuery): Promise<LiabilityRootPage> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  const [{ total }] = await db.select({ total: count() }).from(liabilityRoots);
  const rows = await db.select().from(liabilityRoots).orderBy(desc(liabilityRoots.publishedAt), desc(liabilityRoots.id))
    .limit(pageSize).offset((pageNo - 1) * pageSize);
  const coverage = await productCoverage(db);
  return {
    records: rows.map(toRoot), total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize),
    // Absent while no product is offered (the answer is then as before issue 22).
    ...(coverage.length > 0 ? { productCoverage: coverage } : {}),
  };
}

/** Level sizes of a tree of `leafCount` leaves, bottom up, to the single top node. */
function levelSizes(leafCount: number): number[] {
  const sizes = [leafCount];
  while (sizes[sizes.length - 1] > 1) sizes.push(Math.ceil(sizes[sizes.length - 1] / 2));
  return sizes;
}

/**
 * The user's leaf and the siblings up to the top in the newest publication: their own salt, leaf
 * id and balances, and of everyone else only sibling hashes and sums.
 */
export async function liabilityProof(db: Executor, userId: bigint): Promise<LiabilityProofResult> {
  const rootRow = await latestRoot(db);
  const offered = await productCoverage(db);
  // Absent while no product is offered (the answer is then as before issue 22).
  const coverage = offered.length > 0 ? { productCoverage: offered } : {};
  if (!rootRow) return { root: null, proof: null, ...coverage };
  const root = toRoot(rootRow);
  const [leaf] = await db.select().from(liabilityLeaves)
    .where(and(eq(liabilityLeaves.rootId, rootRow.id), eq(liabilityLeaves.userId, userId)));
  if (!leaf) {
    const [user] = await db.select({ createdAt: usersTable.createdAt, isGuest: usersTable.isGuest }).from(usersTable).where(eq(usersTable.id, userId));
    const absence = !user ? null : user.createdAt > rootRow.publishedAt ? 'account_newer' as const : user.isGuest ? 'guest' as const : null;
    return { root, proof: null, absence, ...coverage };
  }
  const assets = rootRow.assets as TreeAsset[];
  const sizes = levelSizes(rootRow.leafCount);
  const wanted: { level: number; position: number }[] = [{ level: 0, position: leaf.position }];
  let position = leaf.position;
  for (let level = 0; level < sizes.length - 1; level += 1) {
    wanted.push({ level, position: position ^ 1 });
    position = Math.floor(position / 2);
  }
  const rows = await db.select().from(liabilityNodes).where(and(
    eq(liabilityNodes.rootId, rootRow.id),
    or(...wanted.map((node) => and(eq(liabilityNodes.level, node.level), eq(liabilityNodes.position, node.position)))),
  ));
  const nodeAt = (level: number, at: number): TreeNode | undefined => {
    const found = rows.find((row) => row.level === level && row.position === at);
    return found && { hash: fromHex(found.hash), sums: (found.sums as string[]).map(BigInt) };
  };
  const own = nodeAt(0, leaf.position);
  if (!own) throw new Error(`liability leaf ${leaf.position} of root ${rootRow.id} is missing`);
  const path = wanted.slice(1).map(({ level, position: at }) => {
    const node = nodeAt(level, at) ?? padNode(assets.length);
    return { hash: toHex(node.hash), sums: node.sums.map((sum, i) => formatAmount(sum, assets[i].scale)) };
  });
  return {
    root,
    proof: {
      userId: userId.toString(),
      index: leaf.position,
      salt: leaf.salt,
      leafId: leaf.leafId,
      balances: own.sums.map((sum, i) => ({ currency: assets[i].currency, amount: formatAmount(sum, assets[i].scale) })),
      path,
    },
    ...coverage,
  };
}

/** Whether any root was published on the UTC day of `now`. */
async function publishedOn(db: Executor, day: string) {
  const [row] = await db.select({ id: liabilityRoots.id }).from(liabilityRoots).where(eq(liabilityRoots.day, day)).limit(1);
  return row !== undefined;
}

export interface Timer {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const systemTimer: Timer = {
  setInterval: (callback, ms) => setInterval(callback, ms).unref(),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

export interface DailyPublisherOptions {
  db: Db;
  clock: Clock;
  /** Whether this instance leads (holds the engine lock) right now. */
  isLeading: () => boolean;
  /** How often to look (10 minutes by default); the publication itself is once per UTC day. */
  checkIntervalMs?: number;
  timer?: Timer;
  onError?: (error: unknown) => void;
  onPublished?: (root: LiabilityRoot) => void;
}

export interface DailyPublisher {
  /** One check: publishes when this instance leads and nothing was published this UTC day. */
  check(): Promise<LiabilityRoot | null>;
  start(): void;
  stop(): Promise<void>;
}

/** PostgreSQL's unique_violation, as node-postgres and PGlite report it. */
const isUniqueViolation = (error: unknown) => {
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: string }).code === '23505') return true;
  }
  return false;
};

/**
 * The daily publication, run on every instance and acting only on the leader: each check looks
 * whether today's (UTC) root exists and publishes one if not. Two leaders in a hand-over cannot
 * both publish a daily root for one day (unique index); the loser's attempt is simply dropped.
 */
export function dailyLiabilityPublisher(options: DailyPublisherOptions): DailyPublisher {
  const timer = options.timer ?? systemTimer;
  const onError = options.onError ?? (() => {});
  let handle: unknown;
  let running: Promise<LiabilityRoot | null> = Promise.resolve(null);

  const once = async (): Promise<LiabilityRoot | null> => {
    if (!options.isLeading()) return null;
    if (await publishedOn(options.db, utcDay(options.clock.now()))) return null;
    try {
      const root = await publishLiabilities(options.db, { clock: options.clock, trigger: 'daily' });
      options.onPublished?.(root);
      return root;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  };
  const check = () => {
    running = running.then(once, once);
    return running;
  };

  return {
    check,
    start() {
      if (handle !== undefined) return;
      handle = timer.setInterval(() => { check().catch(onError); }, options.checkIntervalMs ?? 600_000);
      check().catch(onError);
    },
    async stop() {
      if (handle !== undefined) timer.clearInterval(handle);
      handle = undefined;
      await running.catch(() => null);
    },
  };
}
