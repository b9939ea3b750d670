// The IEO lottery (issue 23): the time to draw 100 000 applications (1 to 5 lots each, 300 000
// tickets, 100 000 lots on offer): the canonical list written and hashed, the seed checked against
// its commitment and the winners drawn by src/api/ieoDraw.ts, the same function the browser runs
// for "Verify the draw". Median of five. Budget: ≤ 2 000 ms. Printed, never asserted.
// Alone: `npx tsx test/bench/ieo.ts`.
import { randomBytes } from 'node:crypto';
import { drawWinners, listHashOf, listText, seedHashOf } from '../../src/api/ieoDraw.ts';
import { figure } from './figures.ts';

const applicationCount = 100_000;
const supplyLots = 100_000;

export function ieoBench() {
  const applications = Array.from({ length: applicationCount }, (_, index) => ({ id: String(1_000 + index * 3), lots: 1 + (index % 5) }));
  const samples: number[] = [];
  let winners = 0;
  for (let round = 0; round < 5; round += 1) {
    const seed = randomBytes(32).toString('hex');
    const seedHash = seedHashOf(seed);
    const started = performance.now();
    const list = listText(applications);
    listHashOf(list);
    if (seedHashOf(seed) !== seedHash) throw new Error('the seed does not match its commitment');
    winners = drawWinners(seed, list, supplyLots).length;
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const median = samples[2];
  console.log(`IEO draw of ${applicationCount} applications (${supplyLots} of 300 000 lots, ${winners} winners): median ${median.toFixed(0)} ms of 5 (budget 2 000 ms)`);
  figure('ieo.draw_100k', median, 'ms');
}

if (import.meta.url === `file://${process.argv[1]}`) ieoBench();
