// Who is on duty in the support chat (issue 21): an operator whose back-office chat screen sent
// its heartbeat within the duty window. The heartbeat is a row per operator in system_settings
// ("chat.duty.<operatorId>", its time in updated_at), so every instance sees the same operators.
import { and, eq, gte, like } from 'drizzle-orm';
import { operators, systemSettings } from '../../../db/schema.ts';
import { dutyWindowMs, type DutyOperator } from '../../../../src/api/contract/chat.ts';
import type { Services } from '../../kernel/services.ts';

const dutyKeyPrefix = 'chat.duty.';

/** The operator's chat screen is open now. */
export async function dutyHeartbeat(services: Pick<Services, 'db' | 'clock'>, operatorId: bigint) {
  const now = services.clock.now();
  await services.db.insert(systemSettings).values({ key: `${dutyKeyPrefix}${operatorId}`, value: String(now.getTime()), updatedAt: now })
    .onConflictDoUpdate({ target: systemSettings.key, set: { value: String(now.getTime()), updatedAt: now } });
}

export async function operatorsOnDuty(services: Pick<Services, 'db' | 'clock'>): Promise<DutyOperator[]> {
  const since = new Date(services.clock.now().getTime() - dutyWindowMs);
  const rows = await services.db.select({ key: systemSettings.key, at: systemSettings.updatedAt }).from(systemSettings)
    .where(and(like(systemSettings.key, `${dutyKeyPrefix}%`), gte(systemSettings.updatedAt, since)));
  if (rows.length === 0) return [];
  const all = await services.db.select({ id: operators.id, email: operators.email, disabled: operators.disabled }).from(operators)
    .where(eq(operators.disabled, false));
  const byId = new Map(all.map((row) => [String(row.id), row]));
  return rows.flatMap((row) => {
    const operator = byId.get(row.key.slice(dutyKeyPrefix.length));
    return operator ? [{ operatorId: String(operator.id), email: operator.email, lastSeenAt: row.at.getTime() }] : [];
  });
}
