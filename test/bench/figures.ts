// Figures a machine can read (issue 20): every figure the benchmark prints for a person is also
// printed as one line `figure <name> <value> <unit>`, and kept for later parts of the same run (the
// contract opens compare themselves with the ledger's raw transfer rate measured before them).
const values = new Map<string, number>();

/** Prints `figure <name> <value> <unit>` and keeps the value under its name. */
export function figure(name: string, value: number, unit: string) {
  values.set(name, value);
  const text = Number.isInteger(value) ? String(value) : value.toFixed(Math.abs(value) >= 100 ? 1 : 3);
  console.log(`figure ${name} ${text} ${unit}`);
}

/** A figure printed earlier in this run, if its part ran. */
export const figureValue = (name: string): number | undefined => values.get(name);
