// PostgreSQL array literals bound as one text parameter: a statement that takes a column of
// values as `$1::bigint[]` (with unnest, or = any) has the same text at any size, so it is
// prepared once and costs one parameter instead of one per row.

/** Every value quoted (any text is safe), null as NULL. */
export function arrayLiteral(values: ReadonlyArray<string | bigint | number | null>): string {
  return `{${values.map((value) => (value === null ? 'NULL' : `"${String(value).replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;
}

/** Plain tokens (integers, symbols, periods: nothing to quote), joined as they are: cheaper for long columns. */
export function tokenArrayLiteral(values: ReadonlyArray<string | bigint | number>): string {
  return `{${values.join(',')}}`;
}

/** The rows of a `db.execute` result, on either driver. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
