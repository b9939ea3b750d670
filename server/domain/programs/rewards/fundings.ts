// The reward pools (issue 23): the `rewards` system account (welfare tasks, VIP bonuses, red
// envelopes, team income) and `prizes` (competition prizes), funded by operators from the house
// (transfer kind 'reward_funding') through the ledger's one funding mechanism and two-operator
// rule (ledger/fundings.ts, ledger/dualControl.ts), as product reserves are: done at once up to the
// threshold, counting the requester's own decisions of the last 24 hours in USDT, else pending a
// second, different operator. A pool's
// balance is the sum of its 16 shards (payout jobs draw from any shard, so one may go below zero);
// what pays from a pool one user at a time goes through payFromPool, which takes the pool's lock,
// checks the balance and refuses with pool_insufficient before anything moves.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { PoolBalance, RewardFunding, RewardPool } from '../../../../src/api/contract/rewards.ts';
import { rewardPools } from '../../../../src/api/contract/rewards.ts';
import { competitions, ledgerAccounts, rewardFundingApprovals, rewardFundings } from '../../../db/schema.ts';
import type { Executor, Tx } from '../../../db/client.ts';
import { AppError, conflict, notFound } from '../../../lib/errors.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import type { ApprovalStore } from '../../kernel/ledger/dualControl.ts';
import { approveHouseFunding, parseFundingAmount } from '../../kernel/ledger/fundings.ts';
import { ledgers, openAccounts, systemShard } from '../../kernel/ledger/accounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import type { TransferKind } from '../../kernel/ledger/rules.ts';
import { valueForDualControl } from '../../core/wallet/currencies.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';

type FundingRow = typeof rewardFundings.$inferSelect;

async function scaleOrRefuse(db: Executor, asset: string): Promise<number> {
  const scale = (await assetScales(db)).get(asset);
  if (scale === undefined) throw new AppError(400, 'currency_unknown', `There is no asset ${asset}.`);
  return scale;
}

/** Parses an operator's amount text in the asset's scale: positive, at most `scale` decimals. */
export const parsePositive = parseFundingAmount;

async function fundingWire(db: Executor, row: FundingRow): Promise<RewardFunding> {
  const approvals = await db.select().from(rewardFundingApprovals).where(eq(rewardFundingApprovals.fundingId, row.id))
    .orderBy(asc(rewardFundingApprovals.createdAt));
  const scale = scaleOf(await assetScales(db), row.asset);
  return {
    id: row.id.toString(), pool: row.pool as RewardPool, asset: row.asset, amount: formatAmount(row.amount, scale),
    ...(row.competitionId === null ? {} : { competitionId: row.competitionId.toString() }),
    status: row.status as RewardFunding['status'], approvalsRequired: row.approvalsRequired,
    approvals: approvals.map((approval) => ({ operatorId: approval.operatorId.toString(), time: approval.createdAt.getTime() })),
    requestedBy: row.requestedBy.toString(), createdAt: row.createdAt.getTime(),
    ...(row.completedAt ? { completedAt: row.completedAt.getTime() } : {}),
  };
}

/** Serialises every movement of one pool in one asset for the rest of the transaction. */
export async function lockPool(tx: Executor, pool: RewardPool, asset: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`reward-pool|${pool}|${asset}`}, 0))`);
}

/** What a pool holds in an asset (posted minus pending debits, over its shards), atomic. */
export async function poolBalance(db: Executor, pool: RewardPool, asset: string): Promise<bigint> {
  const [row] = await db.select({
    total: sql<string>`coalesce(sum(${ledgerAccounts.creditsPosted} - ${ledgerAccounts.debitsPosted} - ${ledgerAccounts.debitsPending}), 0)::text`,
  }).from(ledgerAccounts).where(and(eq(ledgerAccounts.ledger, ledgers.real), eq(ledgerAccounts.kind, pool), eq(ledgerAccounts.asset, asset)));
  return BigInt(row?.total ?? '0');
}

/** Every pool's balance in every asset it has an account in. */
export async function poolBalances(db: Executor): Promise<PoolBalance[]> {
  const rows = await db.select({
    pool: ledgerAccounts.kind, asset: ledgerAccounts.asset,
    total: sql<string>`sum(${ledgerAccounts.creditsPosted} - ${ledgerAccounts.debitsPosted} - ${ledgerAccounts.debitsPending})::text`,
  }).from(ledgerAccounts).where(and(eq(ledgerAccounts.ledger, ledgers.real), inArray(ledgerAccounts.kind, [...rewardPools])))
    .groupBy(ledgerAccounts.kind, ledgerAccounts.asset).orderBy(ledgerAccounts.kind, ledgerAccounts.asset);
  const scales = await assetScales(db);
  return rows.map((row) => ({ pool: row.pool as RewardPool, asset: row.asset, balance: formatAmount(BigInt(row.total), scaleOf(scales, row.asset)) }));
}

export interface PoolPayment {
  pool: RewardPool;
  asset: string;
  amountAtomic: bigint;
  /** The user's account credited. */
  creditAccountId: bigint;
  /** Derived from the business object (task and user, envelope): the ledger never posts an id twice. */
  transferId: string;
  kind: TransferKind;
  reference: string;
  remark?: string;
}

/**
 * Pays one user from a pool inside the caller's transaction: the pool's lock, its balance checked
 * (pool_insufficient, nothing moves), one transfer. Answers whether the ledger had the id already.
 */
export async function payFromPool(tx: Tx, payment: PoolPayment, now: Date): Promise<{ replayed: boolean }> {
  await lockPool(tx, payment.pool, payment.asset);
  const balance = await poolBalance(tx, payment.pool, payment.asset);
  if (balance < payment.amountAtomic) {
    throw conflict('pool_insufficient', 'The reward pool is empty for now; please try again later.');
  }
  const [source] = await openAccounts(tx, [{ ledger: 'real', asset: payment.asset, kind: payment.pool, shard: systemShard(payment.transferId) }]);
  const result = await postTransfers(tx, [{
    id: payment.transferId, kind: payment.kind, reference: payment.reference, amountAtomic: payment.amountAtomic,
    debitAccountId: source, creditAccountId: payment.creditAccountId, remark: payment.remark ?? payment.reference,
  }], { now: () => now });
  if (!result.ok) throw new Error(`pool payment refused by the ledger: ${result.refusal}`);
  return { replayed: result.replayed };
}

function approvalStore(tx: Tx, fundingId: bigint): ApprovalStore {
  return {
    insert: async (operatorId, now) => (await tx.insert(rewardFundingApprovals).values({ fundingId, operatorId, createdAt: now })
      .onConflictDoNothing().returning({ operatorId: rewardFundingApprovals.operatorId })).length === 1,
    approvers: async () => (await tx.select({ operatorId: rewardFundingApprovals.operatorId }).from(rewardFundingApprovals)
      .where(eq(rewardFundingApprovals.fundingId, fundingId))).map((row) => row.operatorId),
  };
}

/**
 * One operator's approval (the request's own first): when it completes the funding, the money
 * moves into the pool under the pool's lock; else the count required is kept on the row.
 */
async function approve(tx: Tx, funding: FundingRow, operatorId: bigint, now: Date): Promise<FundingRow> {
  const scale = await scaleOrRefuse(tx, funding.asset);
  await lockPool(tx, funding.pool as RewardPool, funding.asset);
  const outcome = await approveHouseFunding(tx, {
    kind: 'pool_funding', fundingId: funding.id, asset: funding.asset, scale, amountAtomic: funding.amount,
    valuation: await valueForDualControl(tx, funding.asset, scale, funding.amount, now),
    accountKind: funding.pool as RewardPool, shardKey: `reward-funding:${funding.id}`, transferId: `rwf-${funding.id}`, transferKind: 'reward_funding',
    reference: funding.competitionId === null ? `pool:${funding.pool}` : `competition:${funding.competitionId}`,
    remark: `${funding.pool} funding ${funding.id}`,
  }, funding.approvalsRequired, operatorId, approvalStore(tx, funding.id), now);
  if (!outcome) throw conflict('funding_approved_by_you', 'You approved this funding already; a different operator must approve it.');
  const [row] = await tx.update(rewardFundings).set(outcome.reached
    ? { status: 'done', transferId: `rwf-${funding.id}`, approvalsRequired: outcome.approvalsRequired, completedAt: now }
    : { approvalsRequired: outcome.approvalsRequired }).where(eq(rewardFundings.id, funding.id)).returning();
  return row;
}

export interface FundingRequest { pool: RewardPool; asset: string; amountText: string; competitionId?: string | bigint }

/** An operator funds a pool: done at once up to the threshold, else pending a second operator. */
export async function requestRewardFunding(tx: Tx, request: FundingRequest, operatorId: bigint, now: Date): Promise<RewardFunding> {
  const scale = await scaleOrRefuse(tx, request.asset);
  const amount = parsePositive(request.amountText, scale);
  let competitionId: bigint | null = null;
  if (request.competitionId !== undefined) {
    if (request.pool !== 'prizes') throw new AppError(400, 'invalid_request', 'Only a prize funding names a competition.');
    competitionId = BigInt(request.competitionId);
    const [competition] = await tx.select({ id: competitions.id }).from(competitions).where(eq(competitions.id, competitionId));
    if (!competition) throw notFound('competition_not_found', 'There is no such competition.');
  }
  const [funding] = await tx.insert(rewardFundings).values({
    pool: request.pool, asset: request.asset, amount, competitionId, status: 'pending', approvalsRequired: 1, requestedBy: operatorId, createdAt: now,
  }).returning();
  return fundingWire(tx, await approve(tx, funding, operatorId, now));
}

async function lockedPending(tx: Tx, fundingId: bigint): Promise<FundingRow> {
  const [funding] = await tx.select().from(rewardFundings).where(eq(rewardFundings.id, fundingId)).for('update');
  if (!funding) throw notFound('funding_not_found', 'There is no such reward funding.');
  if (funding.status !== 'pending') throw conflict('record_already_decided', `This funding is ${funding.status} already.`);
  return funding;
}

/** A second operator approves; the requester approving again is refused (funding_approved_by_you). */
export async function approveRewardFunding(tx: Tx, fundingId: bigint, operatorId: bigint, now: Date) {
  const funding = await lockedPending(tx, fundingId);
  const before = await fundingWire(tx, funding);
  return { before, after: await fundingWire(tx, await approve(tx, funding, operatorId, now)) };
}

export async function rejectRewardFunding(tx: Tx, fundingId: bigint, now: Date) {
  const funding = await lockedPending(tx, fundingId);
  const before = await fundingWire(tx, funding);
  const [row] = await tx.update(rewardFundings).set({ status: 'rejected', completedAt: now })
    .where(eq(rewardFundings.id, fundingId)).returning();
  return { before, after: await fundingWire(tx, row) };
}

/** Pending fundings (or all, newest first, up to 200). */
export async function listRewardFundings(db: Executor, all = false): Promise<RewardFunding[]> {
  const rows = await db.select().from(rewardFundings)
    .where(all ? undefined : eq(rewardFundings.status, 'pending')).orderBy(desc(rewardFundings.id)).limit(200);
  const out: RewardFunding[] = [];
  for (const row of rows) out.push(await fundingWire(db, row));
  return out;
}

/** A demo install's rewards pool: 20 000 USDT from the house, once (the transfer id makes a second call a no-op). */
export async function seedDemoRewardPool(db: Executor, now: Date): Promise<void> {
  const scale = (await assetScales(db)).get('USDT');
  if (scale === undefined) return;
  const [house, pool] = await openAccounts(db, [
    { ledger: 'real', asset: 'USDT', kind: 'house', shard: 0 },
    { ledger: 'real', asset: 'USDT', kind: 'rewards', shard: 0 },
  ]);
  const result = await postTransfers(db, [{
    id: 'demo-rewards-pool', kind: 'reward_funding', reference: 'pool:rewards', amountAtomic: 20_000n * 10n ** BigInt(scale),
    debitAccountId: house, creditAccountId: pool, remark: 'demo rewards pool',
  }], { now: () => now });
  if (!result.ok) throw new Error(`demo rewards pool refused by the ledger: ${result.refusal}`);
}
