// UTC days: what the daily jobs, products, rewards and competitions count in.
export const dayMs = 86_400_000;
/** The UTC day of a time, YYYY-MM-DD. */
export const dayOf = (time: Date | number) => new Date(time).toISOString().slice(0, 10);
/** UTC midnight starting the day of `time`. */
export const midnightOf = (time: Date | number) => Math.floor(new Date(time).getTime() / dayMs) * dayMs;
/** The first UTC midnight at or after `time`. */
export const midnightAtOrAfter = (time: Date | number) => Math.ceil(new Date(time).getTime() / dayMs) * dayMs;
