// The optional filters of the user's trading history lists (issue 19): a time range in ms since
// the epoch over the time each list shows, shared by positions, second contracts and swaps so the
// three lists read `since` and `until` the same way (both inclusive).
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { badRequest } from '../../../lib/errors.ts';

export interface TimeRange { since?: number; until?: number }

/** Conditions bounding `column` (a timestamp) to the range; a range that ends before it starts is refused. */
export function timeRangeConditions(column: SQLWrapper, range: TimeRange): SQL[] {
  if (range.since !== undefined && range.until !== undefined && range.since > range.until) {
    throw badRequest('invalid_request', 'The start of the time range must not come after its end.');
  }
  const conditions: SQL[] = [];
  // As ISO text cast on the database side: `column` may be an expression (coalesce), which has no
  // column mapper to turn a Date into a parameter.
  if (range.since !== undefined) conditions.push(sql`${column} >= ${new Date(range.since).toISOString()}::timestamptz`);
  if (range.until !== undefined) conditions.push(sql`${column} <= ${new Date(range.until).toISOString()}::timestamptz`);
  return conditions;
}
