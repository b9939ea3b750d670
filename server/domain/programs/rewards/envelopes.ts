// Weekly red envelopes (issue 23). Once per UTC week (named by its Monday) every user whose
// current level is 1 or more and whose level has a weekly amount gets one envelope, expiring
// seven days after it was issued. Issuing writes rows only (no money moves): INSERT … SELECT
// from user_levels and vip_rewards in chunks of user ids, `on conflict (user_id, week) do
// nothing`, so a run that crashed half-way is simply run again. Opening credits the amount from
// the `rewards` pool with the transfer id `envelope:<id>` in the transaction that marks it
// opened: it can never pay twice, and an empty pool refuses (pool_insufficient) with nothing moved.
// Issue 38: only a verified account opens one (verification_required, nothing moved); an envelope
// waits unopened for its seven days while its owner completes basic verification.
import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { RedEnvelope } from '../../../../src/api/contract/rewards.ts';
import { redEnvelopes } from '../../../db/schema.ts';
import type { Db, Executor } from '../../../db/client.ts';
import { conflict, notFound } from '../../../lib/errors.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import { userAccountId } from '../../kernel/ledger/accounts.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';
import { payFromPool } from './fundings.ts';
import { verificationRequired } from './welfare.ts';
import { verifiedPersonKey } from '../../core/identity/kyc.ts';
import { rowsOf } from '../../../db/arrays.ts';

export const envelopeLifetimeMs = 7 * 86_400_000;
/** Users per INSERT … SELECT when issuing. */
export const issueChunk = 20_000;

/** The Monday (UTC, YYYY-MM-DD) of the week of a day or time. */
export function weekOf(day: string | Date): string {
  const time = typeof day === 'string' ? new Date(`${day}T00:00:00Z`) : day;
  const monday = new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate()) - ((time.getUTCDay() + 6) % 7) * 86_400_000);
  return monday.toISOString().slice(0, 10);
}


/**
 * Issues the week's envelopes to every eligible user who has none for the week yet, in chunks of
 * `issueChunk` user ids (each its own statement). Answers how many were written now.
 */
export async function issueEnvelopes(db: Executor, week: string, now: Date, chunk = issueChunk): Promise<number> {
  const expiresAt = new Date(now.getTime() + envelopeLifetimeMs);
  let after = 0n;
  let issued = 0;
  for (;;) {
    const [bound] = rowsOf<{ upto: string | null }>(await db.execute(sql`select max(user_id)::text as upto from (
      select user_id from user_levels where level >= 1 and user_id > ${after} order by user_id limit ${chunk}) as c`));
    if (!bound?.upto) break;
    const upto = BigInt(bound.upto);
    const inserted = rowsOf<{ n: number }>(await db.execute(sql`with written as (
      insert into red_envelopes (user_id, week, level, asset, amount, status, expires_at, created_at)
      select ul.user_id, ${week}, ul.level, vr.asset, vr.weekly_envelope, 'unopened', ${expiresAt.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from user_levels ul join vip_rewards vr on vr.level = ul.level
      where ul.level >= 1 and vr.weekly_envelope > 0 and ul.user_id > ${after} and ul.user_id <= ${upto}
      on conflict (user_id, week) do nothing returning 1)
      select count(*)::int as n from written`));
    issued += Number(inserted[0]?.n ?? 0);
    after = upto;
  }
  return issued;
}

/** Marks the unopened envelopes whose time is up as expired. */
export async function expireEnvelopes(db: Executor, now: Date): Promise<number> {
  const rows = await db.update(redEnvelopes).set({ status: 'expired' })
    .where(and(eq(redEnvelopes.status, 'unopened'), lte(redEnvelopes.expiresAt, now))).returning({ id: redEnvelopes.id });
  return rows.length;
}

type EnvelopeRow = typeof redEnvelopes.$inferSelect;

function wire(row: EnvelopeRow, scales: Map<string, number>, now: Date): RedEnvelope {
  const status = row.status === 'unopened' && row.expiresAt.getTime() <= now.getTime() ? 'expired' : row.status as RedEnvelope['status'];
  return {
    id: row.id.toString(), week: row.week, level: row.level, asset: row.asset,
    ...(status === 'opened' ? { amount: formatAmount(row.amount, scaleOf(scales, row.asset)) } : {}),
    status, expiresAt: row.expiresAt.getTime(), ...(row.openedAt ? { openedAt: row.openedAt.getTime() } : {}), createdAt: row.createdAt.getTime(),
  };
}

/** The caller's last 20 envelopes, newest first. */
export async function myEnvelopes(db: Executor, userId: bigint, now: Date): Promise<RedEnvelope[]> {
  const rows = await db.select().from(redEnvelopes).where(eq(redEnvelopes.userId, userId)).orderBy(desc(redEnvelopes.id)).limit(20);
  const scales = await assetScales(db);
  return rows.map((row) => wire(row, scales, now));
}

/**
 * Opens the caller's envelope: envelope_not_found (absent or another user's), envelope_opened,
 * envelope_expired, verification_required, pool_insufficient (in that order) move nothing.
 */
export async function openEnvelope(db: Db, userId: bigint, id: bigint, now: Date): Promise<RedEnvelope> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(redEnvelopes).where(and(eq(redEnvelopes.id, id), eq(redEnvelopes.userId, userId))).for('update');
    if (!row) throw notFound('envelope_not_found', 'There is no such red envelope.');
    if (row.status === 'opened') throw conflict('envelope_opened', 'You have opened this red envelope already.');
    if (row.status === 'expired' || row.expiresAt.getTime() <= now.getTime()) {
      throw conflict('envelope_expired', 'This red envelope has expired.');
    }
    if (await verifiedPersonKey(tx, userId) === null) throw verificationRequired();
    const transferId = `envelope:${row.id}`;
    const spot = await userAccountId(tx, userId, row.asset, 'spot');
    await payFromPool(tx, {
      pool: 'rewards', asset: row.asset, amountAtomic: row.amount, creditAccountId: spot, transferId,
      kind: 'red_envelope', reference: `envelope:${row.id}`, remark: `red envelope ${row.week}`,
    }, now);
    const [opened] = await tx.update(redEnvelopes).set({ status: 'opened', openedAt: now, transferId })
      .where(eq(redEnvelopes.id, row.id)).returning();
    return wire(opened, await assetScales(tx), now);
  });
}
