// Maintenance mode (issue 21): the system setting "maintenance", a JSON value
// { maintenance, message?, until?, minAppVersion? } an operator sets in the back office. The app's
// 60-second status check reads it with the server's time. A missing or unreadable setting means no
// maintenance.
import { eq } from 'drizzle-orm';
import type { AdminMaintenance, Status } from '../../../../src/api/contract/content.ts';
import type { Executor } from '../../../db/client.ts';
import { systemSettings } from '../../../db/schema.ts';
import { badRequest } from '../../../lib/errors.ts';

export const maintenanceKey = 'maintenance';

interface Stored { maintenance: boolean; message?: string; until?: number; minAppVersion?: string }

function parse(value: string | undefined): Stored {
  if (!value) return { maintenance: false };
  try {
    const parsed = JSON.parse(value) as Partial<Stored>;
    return {
      maintenance: parsed.maintenance === true,
      ...(typeof parsed.message === 'string' && parsed.message !== '' ? { message: parsed.message } : {}),
      ...(typeof parsed.until === 'number' && Number.isSafeInteger(parsed.until) ? { until: parsed.until } : {}),
      ...(typeof parsed.minAppVersion === 'string' && parsed.minAppVersion !== '' ? { minAppVersion: parsed.minAppVersion } : {}),
    };
  } catch {
    return { maintenance: false };
  }
}

/** The maintenance setting as operators see it, with when it was last set. */
export async function readMaintenance(db: Executor): Promise<AdminMaintenance> {
  const [row] = await db.select().from(systemSettings).where(eq(systemSettings.key, maintenanceKey)).limit(1);
  return { ...parse(row?.value), ...(row ? { updatedAt: row.updatedAt.getTime() } : {}) };
}

/**
 * What the app's status check answers: maintenance is on while the setting says so and its end
 * (`until`), if any, is still ahead; the server's time always.
 */
export async function currentStatus(db: Executor, now: Date): Promise<Status> {
  const { updatedAt: _updatedAt, ...stored } = await readMaintenance(db);
  const over = stored.until !== undefined && stored.until <= now.getTime();
  return {
    maintenance: stored.maintenance && !over,
    ...(stored.maintenance && !over && stored.message ? { message: stored.message } : {}),
    ...(stored.maintenance && !over && stored.until !== undefined ? { until: stored.until } : {}),
    ...(stored.minAppVersion ? { minAppVersion: stored.minAppVersion } : {}),
    serverTime: now.getTime(),
  };
}

/** Sets the maintenance setting; answers it before and after (for the audit). */
export async function writeMaintenance(db: Executor, now: Date, next: Stored) {
  if (next.maintenance && next.until !== undefined && next.until <= now.getTime()) {
    throw badRequest('invalid_request', 'The end of maintenance must be in the future.');
  }
  const before = await readMaintenance(db);
  const value: Stored = {
    maintenance: next.maintenance,
    ...(next.message?.trim() ? { message: next.message.trim() } : {}),
    ...(next.until !== undefined ? { until: next.until } : {}),
    ...(next.minAppVersion ? { minAppVersion: next.minAppVersion } : {}),
  };
  await db.insert(systemSettings).values({ key: maintenanceKey, value: JSON.stringify(value), updatedAt: now })
    .onConflictDoUpdate({ target: systemSettings.key, set: { value: JSON.stringify(value), updatedAt: now } });
  return { before, after: { ...value, updatedAt: now.getTime() } as AdminMaintenance };
}
