// Settings that decide what the house pays or how much one operator may move alone (a
// two-operator threshold, product sales and rates, welfare and VIP rewards, team commission) are
// changed by two operators (issue 38 point 1). A change is tried first inside a savepoint of the
// caller's transaction: when it pays less than before (a threshold lowered, a bonus cut) it stays
// applied at once; when it would pay more, the savepoint is rolled back and the change is stored
// as a request, which a SECOND, different operator approves (it is then applied anew, with its
// bounds checked again against the state of that moment) or rejects. Each kind of setting brings
// its own spec (how to apply it, what counts as "more") from the layer that knows it: the kernel
// never imports the programs whose settings it guards.
import { and, desc, eq } from 'drizzle-orm';
import { settingChanges } from '../../db/schema.ts';
import type { Executor, Tx } from '../../db/client.ts';
import type { Clock } from '../../lib/time.ts';
import { assert, conflict, notFound } from '../../lib/errors.ts';
import { recordAudit } from './audit.ts';

/** A setting change as the back office reads it. */
export interface SettingChangeWire {
  id: string;
  setting: string;
  target: string;
  before: unknown;
  after: unknown;
  status: 'pending' | 'applied' | 'rejected';
  requestedBy: string;
  decidedBy: string | null;
  reason: string | null;
  createdAt: number;
  decidedAt: number | null;
}

export interface SettingApplied { before: unknown; after: unknown }

/**
 * One kind of setting. `apply` makes the change inside `tx` and answers the setting's state
 * before and after (wire shapes, as the audit keeps them); `raises` says whether `after` pays more
 * than `before` (or lets one operator move more alone). `body` is what the operator sent, stored
 * with a pending request and applied again on approval.
 */
export interface SettingSpec<Body> {
  setting: string;
  target: string;
  body: Body;
  /** The audit action and target type of the change itself ("vip.reward.update", "vip_reward"). */
  auditAction: string;
  auditTargetType: string;
  apply(tx: Tx, body: Body, now: Date): Promise<SettingApplied>;
  raises(applied: SettingApplied): boolean;
}

/** Resolves a stored request's setting and target to its spec, with the stored body. */
export type SettingSpecs = (setting: string, target: string, body: unknown) => SettingSpec<unknown>;

type Row = typeof settingChanges.$inferSelect;

const wire = (row: Row): SettingChangeWire => ({
  id: row.id.toString(), setting: row.setting, target: row.target, before: row.before,
  after: (row.after as { preview?: unknown }).preview ?? null, status: row.status as SettingChangeWire['status'],
  requestedBy: row.requestedBy.toString(), decidedBy: row.decidedBy?.toString() ?? null, reason: row.reason,
  createdAt: row.createdAt.getTime(), decidedAt: row.decidedAt?.getTime() ?? null,
});

/** Thrown inside the trial's savepoint to roll it back while keeping what it would have done. */
class WouldRaise extends Error {
  constructor(readonly applied: SettingApplied) {
    super('the change would raise what the house pays');
  }
}

const jsonSafe = (value: unknown): unknown =>
  value === undefined ? null : JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)));

export type SettingChangeOutcome =
  | { applied: true; before: unknown; after: unknown }
  | { applied: false; change: SettingChangeWire };

/**
 * An operator changes a setting: applied and audited at once when it pays no more than before,
 * else stored as a request for a second operator (audited as requested). Bounds and validation
 * errors thrown by `apply` reach the caller either way, so a refused change stores nothing.
 */
export async function changeSetting<Body>(tx: Tx, spec: SettingSpec<Body>, operatorId: bigint, clock: Clock): Promise<SettingChangeOutcome> {
  const now = clock.now();
  let applied: SettingApplied;
  try {
    applied = await tx.transaction(async (trial) => {
      const result = await spec.apply(trial, spec.body, now);
      if (spec.raises(result)) throw new WouldRaise(result);
      return result;
    });
  } catch (error) {
    if (!(error instanceof WouldRaise)) throw error;
    const [row] = await tx.insert(settingChanges).values({
      setting: spec.setting, target: spec.target, before: jsonSafe(error.applied.before),
      after: { body: jsonSafe(spec.body), preview: jsonSafe(error.applied.after) }, status: 'pending', requestedBy: operatorId, createdAt: now,
    }).returning();
    await recordAudit(tx, {
      operatorId, action: 'setting.change.request', targetType: 'setting_change', targetId: row.id,
      before: error.applied.before, after: { setting: spec.setting, target: spec.target, preview: error.applied.after, waitingForSecondOperator: true },
    }, clock);
    return { applied: false, change: wire(row) };
  }
  await recordAudit(tx, {
    operatorId, action: spec.auditAction, targetType: spec.auditTargetType, targetId: spec.target || null, before: applied.before, after: applied.after,
  }, clock);
  return { applied: true, before: applied.before, after: applied.after };
}

async function lockPending(tx: Tx, id: bigint): Promise<Row> {
  const [row] = await tx.select().from(settingChanges).where(eq(settingChanges.id, id)).for('update');
  if (!row) throw notFound('setting_change_not_found', 'There is no such setting change.');
  if (row.status !== 'pending') throw conflict('record_already_decided', `This change is ${row.status} already.`);
  return row;
}

/**
 * A second, different operator approves a pending change: it is applied now (its bounds checked
 * again by `apply`) and audited under the change's own action, naming both operators.
 */
export async function approveSettingChange(tx: Tx, id: bigint, operatorId: bigint, specs: SettingSpecs, clock: Clock): Promise<SettingChangeWire> {
  const row = await lockPending(tx, id);
  if (row.requestedBy === operatorId) {
    throw conflict('setting_change_requested_by_you', 'You asked for this change; a different operator must approve it.');
  }
  const now = clock.now();
  const spec = specs(row.setting, row.target, (row.after as { body: unknown }).body);
  const applied = await spec.apply(tx, spec.body, now);
  const [done] = await tx.update(settingChanges)
    .set({ status: 'applied', decidedBy: operatorId, decidedAt: now, before: jsonSafe(applied.before), after: { body: (row.after as { body: unknown }).body, preview: jsonSafe(applied.after) } })
    .where(eq(settingChanges.id, id)).returning();
  await recordAudit(tx, {
    operatorId, action: spec.auditAction, targetType: spec.auditTargetType, targetId: row.target || null,
    before: applied.before, after: { ...(applied.after as object), settingChangeId: id.toString(), requestedBy: row.requestedBy.toString() },
  }, clock);
  return wire(done);
}

/** Any operator (the requester too: withdrawing a request) rejects a pending change, with a reason. */
export async function rejectSettingChange(tx: Tx, id: bigint, operatorId: bigint, reason: string, clock: Clock): Promise<SettingChangeWire> {
  const row = await lockPending(tx, id);
  const now = clock.now();
  const [done] = await tx.update(settingChanges).set({ status: 'rejected', decidedBy: operatorId, decidedAt: now, reason })
    .where(eq(settingChanges.id, id)).returning();
  assert(done, `setting change ${id} rejected`);
  await recordAudit(tx, {
    operatorId, action: 'setting.change.reject', targetType: 'setting_change', targetId: id, before: wire(row), after: wire(done), reason,
  }, clock);
  return wire(done);
}

/** Pending changes (or all, newest first), up to 200; optionally of one setting. */
export async function listSettingChanges(db: Executor, options: { all?: boolean; setting?: string } = {}): Promise<SettingChangeWire[]> {
  const rows = await db.select().from(settingChanges)
    .where(and(options.all ? undefined : eq(settingChanges.status, 'pending'), options.setting ? eq(settingChanges.setting, options.setting) : undefined))
    .orderBy(desc(settingChanges.id)).limit(200);
  return rows.map(wire);
}

/** The pending change of one setting and target, if any (what the setting's screen shows beside it). */
export async function pendingChangeOf(db: Executor, setting: string, target: string): Promise<SettingChangeWire | undefined> {
  const [row] = await db.select().from(settingChanges)
    .where(and(eq(settingChanges.setting, setting), eq(settingChanges.target, target), eq(settingChanges.status, 'pending')))
    .orderBy(desc(settingChanges.id)).limit(1);
  return row ? wire(row) : undefined;
}
