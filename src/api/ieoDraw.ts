// The IEO lottery (issue 23) as a pure function of the revealed seed and the published list, shared
// by the server (which draws) and the app (whose "Verify the draw" recomputes it in the browser).
// docs/fairness.md states it step by step with a worked example; keep the two in step.
//
// 1. list: one line per application, ordered by application id ascending: "<id>:<lots>\n" (ids
//    and lots decimal, no leading zeros, lots ≥ 1). listHash = hex(SHA-256(UTF-8 bytes of list)).
// 2. seed: 32 random bytes, published as 64 lower-case hex; seedHash = hex(SHA-256(seed bytes)).
// 3. tickets: each application expanded into `lots` tickets in list order (T tickets in all).
//    When T ≤ supplyLots, every application wins all its lots and nothing is random.
// 4. Otherwise a partial Fisher–Yates shuffle: for i = 0 … supplyLots − 1, j = i + uniform(T − i),
//    swap tickets i and j. The winners hold tickets 0 … supplyLots − 1.
// 5. uniform(n): 32-bit words read big-endian from the blocks HMAC-SHA256(key = seed bytes,
//    message = listHash bytes ‖ counter as 4 bytes big-endian), counter 0, 1, 2 …, eight words a
//    block, in order. limit = 2^32 − (2^32 mod n); a word w ≥ limit is thrown away (no modulo
//    bias), otherwise uniform(n) = w mod n.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

export interface DrawApplication {
  /** Application id, decimal. */
  id: string;
  lots: number;
}

export interface DrawWinner {
  id: string;
  lots: number;
  won: number;
}

const idPattern = /^[1-9][0-9]{0,17}$/;

export const sha256Hex = (bytes: Uint8Array) => bytesToHex(sha256(bytes));
export const seedHashOf = (seedHex: string) => sha256Hex(hexToBytes(seedHex));
export const listHashOf = (list: string) => sha256Hex(utf8ToBytes(list));

const compareIds = (a: string, b: string) => (a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0);

/** The canonical list text of applications (any order in; sorted by id out). */
export function listText(applications: readonly DrawApplication[]): string {
  let sorted = applications;
  for (let index = 1; index < applications.length; index += 1) {
    if (compareIds(applications[index - 1].id, applications[index].id) >= 0) {
      sorted = [...applications].sort((a, b) => compareIds(a.id, b.id));
      break;
    }
  }
  const lines: string[] = new Array(sorted.length);
  sorted.forEach((application, index) => {
    if (!idPattern.test(application.id) || !Number.isInteger(application.lots) || application.lots < 1 || application.lots >= 1e10) {
      throw new Error(`application ${application.id}: a decimal id and at least one lot`);
    }
    lines[index] = `${application.id}:${application.lots}\n`;
  });
  return lines.join('');
}

const zero = 48;
const colon = 58;
const newline = 10;

/** The applications of a list text; throws when it is not canonical (order, format, duplicates). */
export function parseList(list: string): DrawApplication[] {
  const applications: DrawApplication[] = [];
  let at = 0;
  let previous = '';
  while (at < list.length) {
    const start = at;
    while (at < list.length && list.charCodeAt(at) >= zero && list.charCodeAt(at) <= zero + 9) at += 1;
    const id = list.slice(start, at);
    if (list.charCodeAt(at) !== colon || !idPattern.test(id)) throw new Error(`not an application line at character ${start}`);
    at += 1;
    const lotsStart = at;
    let lots = 0;
    while (at < list.length && list.charCodeAt(at) >= zero && list.charCodeAt(at) <= zero + 9) {
      lots = lots * 10 + list.charCodeAt(at) - zero;
      at += 1;
    }
    const digits = at - lotsStart;
    if (list.charCodeAt(at) !== newline || digits === 0 || digits > 10 || list.charCodeAt(lotsStart) === zero) {
      throw new Error(`not an application line at character ${start}`);
    }
    at += 1;
    if (previous !== '' && compareIds(previous, id) >= 0) throw new Error(`the list is not ordered by id at ${id}`);
    previous = id;
    applications.push({ id, lots });
  }
  return applications;
}

/** The stream of uniform integers of step 5. */
export class DrawStream {
  private readonly keyed: ReturnType<typeof hmac.create>;
  private readonly message: Uint8Array;
  private counter = 0;
  private words = new Uint32Array(0);
  private next = 0;

  constructor(seed: Uint8Array, listHash: Uint8Array) {
    this.keyed = hmac.create(sha256, seed);
    this.message = new Uint8Array(listHash.length + 4);
    this.message.set(listHash);
  }

  private word(): number {
    if (this.next === this.words.length) {
      const view = new DataView(this.message.buffer);
      view.setUint32(this.message.length - 4, this.counter);
      this.counter += 1;
      const block = this.keyed.clone().update(this.message).digest();
      const blockView = new DataView(block.buffer, block.byteOffset, block.byteLength);
      this.words = new Uint32Array(8);
      for (let index = 0; index < 8; index += 1) this.words[index] = blockView.getUint32(index * 4);
      this.next = 0;
    }
    return this.words[this.next++];
  }

  /** A uniform integer in [0, n), 1 ≤ n ≤ 2^32. */
  uniform(n: number): number {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const word = this.word();
      if (word < limit) return word % n;
    }
  }
}

/**
 * The winners of a draw: every application with at least one winning lot, in list order, with
 * its applied and won lots. Total won ≤ supplyLots; won ≤ lots; everyone wins all when T ≤ supply.
 */
export function drawWinners(seedHex: string, list: string, supplyLots: number): DrawWinner[] {
  if (!/^[0-9a-f]{64}$/.test(seedHex)) throw new Error('the seed is 64 lower-case hex digits');
  if (!Number.isInteger(supplyLots) || supplyLots < 1) throw new Error('the supply is a whole number of lots ≥ 1');
  const applications = parseList(list);
  const total = applications.reduce((sum, application) => sum + application.lots, 0);
  if (total <= supplyLots) return applications.map((application) => ({ ...application, won: application.lots }));
  if (total >= 2 ** 32) throw new Error('at most 2^32 − 1 tickets');
  const tickets = new Uint32Array(total);
  let at = 0;
  applications.forEach((application, index) => {
    tickets.fill(index, at, at + application.lots);
    at += application.lots;
  });
  const stream = new DrawStream(hexToBytes(seedHex), hexToBytes(listHashOf(list)));
  const won = new Uint32Array(applications.length);
  for (let i = 0; i < supplyLots; i += 1) {
    const j = i + stream.uniform(total - i);
    const ticket = tickets[j];
    tickets[j] = tickets[i];
    tickets[i] = ticket;
    won[ticket] += 1;
  }
  const winners: DrawWinner[] = [];
  applications.forEach((application, index) => {
    if (won[index] > 0) winners.push({ ...application, won: won[index] });
  });
  return winners;
}

export interface DrawCheck {
  seedMatches: boolean;
  listMatches: boolean;
  /** Application ids whose published winning lots differ from the recomputed ones. */
  winnersDiffer: string[];
  /** Recomputed winners (empty when the seed or list could not be used). */
  winners: DrawWinner[];
  error?: string;
}

/** "Verify the draw": the commitment, the list's hash and the winners, all recomputed. */
export function verifyDraw(draw: { seedHash: string; seed: string; list: string; listHash: string; supplyLots: number;
  winners: ReadonlyArray<{ id: string; won: number }> }): DrawCheck {
  try {
    const seedMatches = seedHashOf(draw.seed) === draw.seedHash.toLowerCase();
    const listMatches = listHashOf(draw.list) === draw.listHash.toLowerCase();
    const winners = drawWinners(draw.seed, draw.list, draw.supplyLots);
    const mine = new Map(winners.map((winner) => [winner.id, winner.won]));
    const theirs = new Map(draw.winners.map((winner) => [winner.id, winner.won]));
    const winnersDiffer = [...new Set([...mine.keys(), ...theirs.keys()])]
      .filter((id) => (mine.get(id) ?? 0) !== (theirs.get(id) ?? 0)).sort(compareIds);
    return { seedMatches, listMatches, winnersDiffer, winners };
  } catch (error) {
    return { seedMatches: false, listMatches: false, winnersDiffer: [], winners: [], error: error instanceof Error ? error.message : String(error) };
  }
}
