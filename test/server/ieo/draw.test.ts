// The IEO draw as a pure function (src/api/ieoDraw.ts, docs/fairness.md): the worked example of
// docs/fairness.md number for number, and properties over random seeds and lists: the same seed
// and list give the same winners; total won ≤ supply (= min(supply, applied)); every winner applied
// and wins at most what it applied for; the list text round-trips; a verifier spots a changed
// seed, list or winner.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { DrawStream, drawWinners, listHashOf, listText, parseList, seedHashOf, verifyDraw } from '../../../src/api/ieoDraw.ts';

const exampleSeed = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const exampleList = '1:3\n2:1\n5:2\n8:4\n';

describe('the worked example of docs/fairness.md', () => {
  test('hashes, block 0, its words and the winners', () => {
    expect(seedHashOf(exampleSeed)).toBe('630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd');
    expect(listHashOf(exampleList)).toBe('4f13746da13bdc5d725935d25b9e9b6cbd0339cb57c4f80d24ebfdec80686b38');
    const message = new Uint8Array(36);
    message.set(hexToBytes(listHashOf(exampleList)));
    const block = hmac(sha256, hexToBytes(exampleSeed), message);
    expect(bytesToHex(block)).toBe('2ccb5ab357fbb0ee465f65b2670ee404a0e994ddb83bdb758d2dec590bb325ae');
    const view = new DataView(block.buffer, block.byteOffset);
    expect(Array.from({ length: 8 }, (_, index) => view.getUint32(index * 4)))
      .toEqual([751524531, 1476112622, 1180657074, 1729029124, 2699662557, 3090930549, 2368597081, 196289966]);
    const stream = new DrawStream(hexToBytes(exampleSeed), hexToBytes(listHashOf(exampleList)));
    expect([10, 9, 8, 7, 6].map((n) => stream.uniform(n))).toEqual([1, 5, 2, 4, 3]);
    expect(drawWinners(exampleSeed, exampleList, 5)).toEqual([
      { id: '1', lots: 3, won: 1 }, { id: '2', lots: 1, won: 1 }, { id: '5', lots: 2, won: 1 }, { id: '8', lots: 4, won: 2 },
    ]);
  });

  test('undersubscribed: everyone wins all their lots', () => {
    expect(drawWinners(exampleSeed, exampleList, 10)).toEqual(parseList(exampleList).map((application) => ({ ...application, won: application.lots })));
    expect(drawWinners(exampleSeed, '', 3)).toEqual([]);
  });

  test('the list is canonical: ordered by id as numbers, one id:lots line each', () => {
    expect(listText([{ id: '10', lots: 1 }, { id: '9', lots: 2 }])).toBe('9:2\n10:1\n');
    for (const bad of ['10:1\n9:2\n', '1:1', '1:0\n', '01:1\n', '1:1\n1:2\n', '1: 1\n']) expect(() => parseList(bad), bad).toThrow();
  });
});

const seedArbitrary = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => bytesToHex(bytes));
const applicationsArbitrary = fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 1_000_000 }), lots: fc.integer({ min: 1, max: 20 }) }),
  { selector: (application) => application.id, maxLength: 60 })
  .map((rows) => rows.map((row) => ({ id: String(row.id), lots: row.lots })));

describe('properties', () => {
  test('a pure function: same seed and list, same winners; total = min(supply, applied); winners applied and won ≤ lots', () => {
    fc.assert(fc.property(seedArbitrary, applicationsArbitrary, fc.integer({ min: 1, max: 400 }), (seed, applications, supply) => {
      const list = listText(applications);
      const winners = drawWinners(seed, list, supply);
      expect(drawWinners(seed, list, supply)).toEqual(winners);
      const applied = new Map(applications.map((application) => [application.id, application.lots]));
      const totalApplied = applications.reduce((sum, application) => sum + application.lots, 0);
      const totalWon = winners.reduce((sum, winner) => sum + winner.won, 0);
      expect(totalWon).toBe(Math.min(supply, totalApplied));
      for (const winner of winners) {
        expect(applied.get(winner.id)).toBe(winner.lots);
        expect(winner.won).toBeGreaterThanOrEqual(1);
        expect(winner.won).toBeLessThanOrEqual(winner.lots);
      }
      expect(parseList(list)).toEqual([...applications].sort((a, b) => Number(a.id) - Number(b.id)));
    }), { numRuns: 200 });
  });

  test('the verifier agrees with an honest draw and names what a changed seed, list or winner breaks', () => {
    fc.assert(fc.property(seedArbitrary, applicationsArbitrary.filter((rows) => rows.length >= 2), (seed, applications) => {
      const list = listText(applications);
      const supply = Math.max(1, Math.floor(applications.reduce((sum, application) => sum + application.lots, 0) / 2));
      const draw = { seed, seedHash: seedHashOf(seed), list, listHash: listHashOf(list), supplyLots: supply, winners: drawWinners(seed, list, supply) };
      const honest = verifyDraw(draw);
      expect(honest).toMatchObject({ seedMatches: true, listMatches: true, winnersDiffer: [] });
      expect(verifyDraw({ ...draw, seed: seed.replace(/^./, (digit) => (digit === '0' ? '1' : '0')) }).seedMatches).toBe(false);
      expect(verifyDraw({ ...draw, list: list.replace(/:(\d+)\n$/, (_, lots: string) => `:${Number(lots) + 1}\n`) }).listMatches).toBe(false);
      const first = draw.winners[0];
      const changed = verifyDraw({ ...draw, winners: [{ ...first, won: first.won + 1 }, ...draw.winners.slice(1)] });
      expect(changed.winnersDiffer).toEqual([first.id]);
    }), { numRuns: 100 });
  });

  test('uniform(n) stays in range and follows the stream', () => {
    fc.assert(fc.property(seedArbitrary, fc.integer({ min: 1, max: 2 ** 32 }), (seed, n) => {
      const stream = new DrawStream(hexToBytes(seed), new Uint8Array(32));
      for (let index = 0; index < 20; index += 1) {
        const value = stream.uniform(n);
        expect(Number.isInteger(value) && value >= 0 && value < n).toBe(true);
      }
    }), { numRuns: 100 });
  });
});
