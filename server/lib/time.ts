// The server's wall clock for display is UTC+8 (spec §9): the client subtracts 8 hours.
const serverOffsetMs = 8 * 3_600_000;

/** "YYYY-MM-DD HH:mm:ss" in UTC+8. */
export function formatServerTime(date: Date): string {
  return new Date(date.getTime() + serverOffsetMs).toISOString().slice(0, 19).replace('T', ' ');
}

export interface Clock { now(): Date }
export const systemClock: Clock = { now: () => new Date() };
