// The broad sweep of the abuse probe (issue 7, "Tests and figures"): a bounded, deterministic set
// of hostile requests by category, fired at the real app over real HTTP (each caller address a
// loopback address of its own, so the per-address limits apply as in production), counting for
// each category the requests sent, the answers with a status of 500 or more, the answers outside
// the envelope, and the state the rejected requests changed (users, sessions, verification codes,
// and every user's identity, password hash and personal data). It asserts every count but the
// requests is 0, and prints the table. The focused suites beside it (input, accounts, connections,
// realtime, redis) assert the exact answers; this one asks only that every answer is a clean one.
// The realtime socket's path is left out: its 101 answer is legitimately not an envelope.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createHash, webcrypto } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TObject } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { forEachDatabase, type Account, type TestServer } from '../helpers.ts';
import { startTestEngine } from '../realtimeHelpers.ts';
import { apiPrefix, paths, requestTimeField } from '../../../src/api/contract/paths.ts';
import { ecb } from '@noble/ciphers/aes.js';
import { encryptBody, randomRequestKey } from '../../../src/api/crypto.ts';
import {
  ChangePasswordBody, CheckAccountQuery, EmailLoginBody, GetEmailCaptchaQuery, GetPhoneCaptchaQuery, GuestLoginBody,
  LoginBody, PersonalDataBody, PhoneLoginBody, RegisterBody, ResetPasswordBody, ActiveReportQuery,
} from '../../../src/api/contract/accounts.ts';
import { Empty } from '../../../src/api/contract/common.ts';
import { candleLimitMax, KlineQuery, SymbolListQuery, SymbolQuery, timeMsMax } from '../../../src/api/contract/market.ts';
import { GetKeyByParamQuery } from '../../../src/api/contract/system.ts';

/** How long one request may take before it counts as unanswered (outside the envelope). */
const answerWaitMs = 20_000;
/** Requests in flight at once within a batch (a 2-core machine shared with other work). */
const batchSize = 8;

interface Answer { status: number; contentType: string; text: string }

/** One request of the probe: over node:http unless `raw` bytes are given (for what no client sends). */
interface Shot {
  /** Short description for the report: route and what is wrong with it. */
  what: string;
  method?: string;
  /** Path and query under the host, /api included. */
  url?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  raw?: string | Buffer;
  /** The caller's address (a loopback address). */
  ip: string;
  /** True when the request may legitimately succeed (the original of a replay, a code within the limits). */
  mayPass?: boolean;
}

/** The state rejected requests must not change. */
interface State { users: number; sessions: number; revokedSessions: number; codes: number; rows: Map<string, string> }

/** What an accepted request of each route adds, to tell its changes from those of rejected ones. */
const effects: Record<string, Partial<Record<'users' | 'sessions' | 'codes', number>>> = {
  [`${apiPrefix}${paths.register}`]: { users: 1, sessions: 1 },
  [`${apiPrefix}${paths.guestLogin}`]: { users: 1, sessions: 1 },
  [`${apiPrefix}${paths.login}`]: { sessions: 1 },
  [`${apiPrefix}${paths.emailLogin}`]: { sessions: 1 },
  [`${apiPrefix}${paths.phoneLogin}`]: { sessions: 1 },
  [`${apiPrefix}${paths.emailCaptcha}`]: { codes: 1 },
  [`${apiPrefix}${paths.phoneCaptcha}`]: { codes: 1 },
};

class Category {
  requests = 0;
  serverErrors = 0;
  outsideEnvelope = 0;
  stateChanges = 0;
  /** Hostile requests that were accepted (a 2xx where a refusal was due). */
  unexpectedPasses = 0;
  readonly statuses = new Map<number, number>();
  readonly expected = { users: 0, sessions: 0, codes: 0 };
  readonly problems: string[] = [];
  /** Checks beyond the counts (answers that should be identical, limits): each failure a line. */
  readonly findings: string[] = [];
  constructor(readonly name: string) {}

  record(shot: Shot, answer: Answer) {
    this.requests += 1;
    this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1);
    const problem = envelopeProblem(answer);
    const seen = `${shot.what} → ${answer.status} ${answer.text.slice(0, 160)}`;
    if (answer.status >= 500) {
      this.serverErrors += 1;
      this.problems.push(`5xx: ${seen}`);
    }
    if (problem) {
      this.outsideEnvelope += 1;
      this.problems.push(`outside the envelope (${problem}): ${seen}`);
    }
    const passed = answer.status >= 200 && answer.status < 300;
    if (passed && !shot.mayPass) {
      this.unexpectedPasses += 1;
      this.problems.push(`accepted: ${seen}`);
    }
    if (passed && shot.mayPass) {
      const effect = effects[pathOf(shot)] ?? {};
      for (const key of ['users', 'sessions', 'codes'] as const) this.expected[key] += effect[key] ?? 0;
    }
  }

  get statusSummary() {
    return [...this.statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
  }
}

const pathOf = (shot: Shot) => {
  const text = shot.url ?? (typeof shot.raw === 'string' ? shot.raw.split(' ')[1] ?? '' : '');
  return text.split('?')[0];
};

const envelopeKeys = 'code,message,result,success,timestamp';

/** Why an answer is not the envelope, or undefined when it is one (and agrees with its status). */
function envelopeProblem(answer: Answer): string | undefined {
  if (answer.status === 0) return 'no answer';
  if (!/^application\/json\b/i.test(answer.contentType)) return `content-type ${JSON.stringify(answer.contentType)}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return 'not JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'not an object';
  const keys = Object.keys(body).sort().join(',');
  if (keys !== envelopeKeys) return `keys ${keys}`;
  const { success, message, code, timestamp, result } = body as Record<string, unknown>;
  if (typeof success !== 'boolean' || typeof message !== 'string' || !Number.isInteger(code) || !Number.isInteger(timestamp)) {
    return 'field types';
  }
  if (code !== answer.status) return `code ${String(code)} for status ${answer.status}`;
  if (success !== (answer.status === 200)) return `success ${String(success)} for status ${answer.status}`;
  if (!success && typeof (result as { error?: unknown } | null)?.error !== 'string') return 'a failure without result.error';
  return undefined;
}

/** One request over real HTTP from `ip` (a loopback address), with its own connection. */
function httpSend(port: number, shot: Shot): Promise<Answer> {
  return new Promise((resolve) => {
    const body = shot.body === undefined ? undefined : Buffer.isBuffer(shot.body) ? shot.body : Buffer.from(shot.body);
    const request = http.request({
      host: '127.0.0.1', port, localAddress: shot.ip, agent: false, method: shot.method ?? 'GET', path: shot.url,
      headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...shot.headers },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', () => undefined);
    });
    const timer = setTimeout(() => {
      request.destroy();
      resolve({ status: 0, contentType: '', text: 'no answer' });
    }, answerWaitMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      resolve({ status: 0, contentType: '', text: `connection failed: ${error.message}` });
    });
    request.end(body);
  });
}

/** Raw bytes over one connection; the answer is whatever the server wrote before closing it. */
function rawSend(port: number, shot: Shot): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: shot.ip }, () => socket.write(shot.raw!));
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseRawAnswer(Buffer.concat(chunks)));
    };
    const timer = setTimeout(finish, answerWaitMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // Most raw requests say "Connection: close"; for the others a complete answer is enough.
      if (rawAnswerComplete(Buffer.concat(chunks))) finish();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', finish);
  });
}

function splitRaw(bytes: Buffer): { statusLine: string; headers: Map<string, string>; body: Buffer } | undefined {
  const text = bytes.toString('latin1');
  // An interim answer (100 Continue) comes before the real one.
  const interim = /^HTTP\/1\.[01] 1(?!01)\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n/.exec(text);
  if (interim) return splitRaw(bytes.subarray(interim[0].length));
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { statusLine, headers, body: bytes.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1')) };
}

function rawAnswerComplete(bytes: Buffer): boolean {
  const parts = splitRaw(bytes);
  const length = parts?.headers.get('content-length');
  return parts !== undefined && length !== undefined && parts.body.length >= Number(length);
}

function parseRawAnswer(bytes: Buffer): Answer {
  const parts = splitRaw(bytes);
  if (!parts) return { status: 0, contentType: '', text: bytes.length ? bytes.toString('utf8').slice(0, 200) : 'no answer' };
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(parts.statusLine)?.[1] ?? 0);
  let body = parts.body;
  if (/chunked/i.test(parts.headers.get('transfer-encoding') ?? '')) {
    const pieces: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = body.indexOf('\r\n', at);
      if (lineEnd === -1) break;
      const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
      if (!(size > 0)) break;
      pieces.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(pieces);
  } else if (parts.headers.has('content-length')) {
    body = body.subarray(0, Number(parts.headers.get('content-length')));
  }
  return { status, contentType: parts.headers.get('content-type') ?? '', text: body.toString('utf8') };
}

/** A loopback address for each harness address (10.a.b.c → 127.a.b.c): a real peer address per caller. */
const loopback = (ip: string) => ip.replace(/^10\./, '127.');

const api = (path: string, query?: Record<string, string> | string) => {
  if (query === undefined) return `${apiPrefix}${path}`;
  const text = typeof query === 'string' ? query
    : Object.entries(query).map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&');
  return `${apiPrefix}${path}?${text}`;
};

/** Encrypts a text (or bytes) exactly as given (nulls, arrays, duplicate keys), under a chosen AES key text if asked. */
async function encryptText(plaintext: string | Uint8Array, serverKey: CryptoKey, keyText = randomRequestKey()): Promise<string> {
  const encoder = new TextEncoder();
  const wrapped = new Uint8Array(await webcrypto.subtle.encrypt({ name: 'RSA-OAEP' }, serverKey, encoder.encode(keyText)));
  const bytes = typeof plaintext === 'string' ? encoder.encode(plaintext) : plaintext;
  return `${Buffer.from(wrapped).toString('base64')}.${Buffer.from(ecb(encoder.encode(keyText)).encrypt(bytes)).toString('base64')}`;
}

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The same bytes spelt otherwise: the last character before the padding with an unused bit set. */
function nonCanonical(part: string): string {
  const padding = /=*$/.exec(part)![0].length;
  if (padding === 0) return `${part}=`;
  const at = part.length - padding - 1;
  const flipped = base64Alphabet[base64Alphabet.indexOf(part[at]) ^ 1];
  return `${part.slice(0, at)}${flipped}${part.slice(at + 1)}`;
}

/** A request body with every field of the contract the route validates against (coverage is checked). */
interface PostRoute { path: string; schema: TObject; body: Record<string, unknown>; token?: boolean }
interface GetRoute { path: string; schema?: TObject; query: Record<string, string>; token?: boolean }

const controlCharacters: Record<string, string> = {
  NUL: '\u0000', BEL: '\u0007', ESC: '\u001B', DEL: '\u007F', 'C1 NEL': '\u0085',
  RLO: '\u202E', LRI: '\u2066', 'lone high surrogate': '\uD800', 'lone low surrogate': '\uDC00',
};
/** A query string cannot carry a lone surrogate as UTF-8: those two are left to the bodies. */
const queryControlCharacters = Object.entries(controlCharacters).filter(([name]) => !name.startsWith('lone'));

/** The same "random" bytes on every run: a SHA-256 chain from a seed. */
const fixedBytes = (length: number, seed: string) => Buffer.concat(Array.from({ length: Math.ceil(length / 32) },
  (_, index) => createHash('sha256').update(`${seed}:${index}`).digest())).subarray(0, length);

const poison = (value: string, character: string) => `${value.slice(0, 1)}${character}${value.slice(1)}`;

async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let at = 0; at < items.length; at += size) results.push(...await Promise.all(items.slice(at, at + size).map(work)));
  return results;
}

const withoutTime = (text: string) => {
  try {
    const { timestamp: _timestamp, ...rest } = JSON.parse(text) as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return text;
  }
};

forEachDatabase((server: TestServer) => {
  let port: number;
  const table: Category[] = [];
  /** A registered e-mail account, a phone account, and an account whose session the authenticated routes use. */
  let known: Account;
  let knownPhone: Account;
  let holder: Account;
  let postRoutes: PostRoute[];
  let getRoutes: GetRoute[];

  const nextIp = () => loopback(server.freshIp());

  async function send(category: Category, shot: Shot): Promise<Answer> {
    const answer = shot.raw !== undefined ? await rawSend(port, shot) : await httpSend(port, shot);
    category.record(shot, answer);
    return answer;
  }

  const sendAll = (category: Category, shots: Shot[], size = batchSize) => inBatches(shots, size, (shot) => send(category, shot));

  /** An encrypted POST, `_ts` holding the server's time, as the client sends it. */
  const encryptedPost = async (path: string, body: Record<string, unknown>, ip: string, extra: Partial<Shot> = {}): Promise<Shot> => ({
    what: `POST ${path} ${JSON.stringify(body).slice(0, 80)}`, method: 'POST', url: api(path), ip,
    headers: { 'content-type': 'application/json', ...(extra.headers ?? {}) }, body: await server.encrypt(body), ...extra,
  });

  const tokenHeader = (route: { token?: boolean }): Record<string, string> => (route.token ? { 'x-access-token': holder.token } : {});

  async function snapshot(): Promise<State> {
    const [counts] = await server.query<{ users: number; sessions: number; revoked: number; codes: number }>(sql`
      select (select count(*)::int from users) as users, (select count(*)::int from sessions) as sessions,
             (select count(*)::int from sessions where revoked_at is not null) as revoked,
             (select count(*)::int from verification_codes) as codes`);
    const rows = await server.query<Record<string, unknown>>(sql`
      select id::text as id, email, phone, phone_country_code, username, password_hash, is_guest, has_initial_password,
             surname, first_name, gender, birthday, country, address, contact_phone from users`);
    return {
      users: Number(counts.users), sessions: Number(counts.sessions), revokedSessions: Number(counts.revoked), codes: Number(counts.codes),
      rows: new Map(rows.map((row) => [String(row.id), JSON.stringify(row)])),
    };
  }

  /**
   * Runs one category from a fresh address: `setup` (accounts and codes it needs, through the
   * harness) before the state is taken, then the hostile requests; counts what they changed beyond
   * what their accepted requests explain, records the category and asserts it.
   */
  async function probe<T>(name: string, setup: () => Promise<T>, run: (category: Category, context: T) => Promise<void>) {
    const category = new Category(name);
    table.push(category);
    server.freshIp();
    const context = await setup();
    const before = await snapshot();
    await run(category, context);
    const after = await snapshot();
    const deltas = {
      users: after.users - before.users - category.expected.users,
      sessions: after.sessions - before.sessions - category.expected.sessions,
      codes: after.codes - before.codes - category.expected.codes,
      'revoked sessions': after.revokedSessions - before.revokedSessions,
    };
    for (const [what, delta] of Object.entries(deltas)) {
      if (delta !== 0) category.problems.push(`state: ${what} changed by ${delta} beyond what accepted requests explain`);
      category.stateChanges += Math.abs(delta);
    }
    for (const [id, row] of before.rows) {
      if (after.rows.get(id) !== row) {
        category.stateChanges += 1;
        category.problems.push(`state: user ${id} changed: ${row} → ${after.rows.get(id)}`);
      }
    }
    expect(category.problems.slice(0, 20), `${name}: ${category.problems.length} problems`).toEqual([]);
    expect(category.findings, name).toEqual([]);
    expect(category.serverErrors + category.outsideEnvelope + category.stateChanges + category.unexpectedPasses).toBe(0);
  }

  beforeAll(async () => {
    // Market data flows, so the market routes and the health answer are ready (a 503 there would be honest, but noise).
    const { tick } = await startTestEngine(server, ['BTCUSDT']);
    await tick(1);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as AddressInfo).port;
    known = await server.registerByEmail();
    knownPhone = await server.registerByPhone(server.uniquePhone(), '44');
    holder = await server.registerByEmail();
    // The codes of the registrations above were sent just now: let their resend interval pass.
    server.clock.advance(server.limits.codeResendIntervalMs);
    const stranger = server.uniqueEmail();
    postRoutes = [
      { path: paths.register, schema: RegisterBody, body: { accountType: 'email', account: stranger, countryCode: '44', password: 'Secret123pass', code: '123456', inviteCode: 'ABCD1234' } },
      { path: paths.login, schema: LoginBody, body: { account: known.account, password: 'Wrong1password', countryCode: '44' } },
      { path: paths.emailLogin, schema: EmailLoginBody, body: { email: known.email, code: '123456' } },
      { path: paths.phoneLogin, schema: PhoneLoginBody, body: { phone: knownPhone.phone, countryCode: '44', code: '123456' } },
      { path: paths.guestLogin, schema: GuestLoginBody, body: { account: 'probe_guest' } },
      { path: paths.resetPassword, schema: ResetPasswordBody, body: { accountType: 'email', account: known.email, countryCode: '44', code: '123456', password: 'Renewed2password', googleCode: '000000', recoveryCode: 'abcde-fghjk' } },
      { path: paths.changePassword, schema: ChangePasswordBody, body: { oldPassword: 'Wrong1password', newPassword: 'Renewed2password', googleCode: '000000' }, token: true },
      {
        path: paths.updatePersonalData, schema: PersonalDataBody, token: true,
        body: { surname: 'Smith', firstName: 'Ann', gender: 'female', birthday: '1990-01-01', country: 'GB', address: '1 High Street', contactPhone: '+44 7700 900000', clear: [] },
      },
      { path: paths.logout, schema: Empty, body: {}, token: true },
    ];
    getRoutes = [
      { path: paths.emailCaptcha, schema: GetEmailCaptchaQuery, query: { email: stranger, type: 'register' } },
      { path: paths.phoneCaptcha, schema: GetPhoneCaptchaQuery, query: { phone: server.uniquePhone(), countryCode: '44', type: 'register' } },
      { path: paths.checkAccount, schema: CheckAccountQuery, query: { account: known.account, countryCode: '44' } },
      { path: paths.activeReport, schema: ActiveReportQuery, query: { path: '/home' }, token: true },
      { path: paths.settingByKey, schema: GetKeyByParamQuery, query: { key: 'sys_set' } },
      { path: paths.symbolList, schema: SymbolListQuery, query: { class: 'crypto' } },
      { path: paths.symbolPrice, schema: SymbolQuery, query: { symbol: 'BTCUSDT' } },
      { path: paths.kline, schema: KlineQuery, query: { symbol: 'BTCUSDT', period: '1m', endTime: '1780000000000', limit: '10' } },
      { path: paths.serverTime, query: {} },
      { path: paths.publicKey, query: {} },
      { path: paths.health, query: {} },
      { path: paths.myUserInfo, query: {}, token: true },
      { path: paths.customerOnline, query: {}, token: true },
      { path: paths.tickerList, query: {} },
      { path: paths.priceDistribution, query: {} },
    ];
  });

  afterAll(() => {
    const rows = table.map((category) =>
      `| ${category.name} | ${category.requests} | ${category.serverErrors} | ${category.outsideEnvelope} | ${category.stateChanges} |`);
    console.log([
      `Abuse probe on ${server.kind}: ${table.reduce((sum, category) => sum + category.requests, 0)} requests over HTTP`,
      '',
      '| category | requests | 5xx | outside envelope | state changes from rejected requests |',
      '|---|---:|---:|---:|---:|',
      ...rows,
      '',
      'Answers by status:',
      ...table.map((category) => `- ${category.name}: ${category.statusSummary}`),
    ].join('\n'));
  });

  it('covers every route of the contract, and every field of every schema it validates', () => {
    const covered = new Set([...postRoutes, ...getRoutes].map((route) => route.path));
    expect(Object.values(paths).filter((path) => !covered.has(path))).toEqual([]);
    for (const route of postRoutes) expect(Object.keys(route.body).sort(), route.path).toEqual(Object.keys(route.schema.properties).sort());
    for (const route of getRoutes) expect(Object.keys(route.query).sort(), route.path).toEqual(Object.keys(route.schema?.properties ?? {}).sort());
  });

  it('malformed and garbage bodies', async () => {
    await probe('malformed bodies', async () => undefined, async (category) => {
      const ip = nextIp();
      const login = { account: known.account, password: 'Wrong1password' };
      const valid = await server.encrypt(login);
      const [wrapped, ciphertext] = valid.split('.');
      const otherKey = await webcrypto.subtle.generateKey(
        { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['encrypt', 'decrypt']);
      // The server's own key, but OAEP with SHA-1 where the protocol says SHA-256.
      const pem = String((await server.get(paths.publicKey)).body.result);
      const der = Buffer.from(pem.replace(/-----(BEGIN|END) PUBLIC KEY-----|\s+/g, ''), 'base64');
      const sha1Key = await webcrypto.subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-1' }, false, ['encrypt']);
      const randomBase64 = (bytes: number) => fixedBytes(bytes, `base64 ${bytes}`).toString('base64');
      const bodies: Record<string, string | (() => Promise<string>)> = {
        empty: '',
        whitespace: '  \n\t ',
        'plain JSON object': JSON.stringify(login),
        'plain JSON null': 'null',
        'plain JSON array': '[]',
        'not base64': 'this is not an encrypted body',
        'one part': wrapped,
        'three parts': `${valid}.${ciphertext}`,
        'empty parts': '.',
        'bad base64 characters': `${wrapped.replace(/[A-Z]/, '*')}.${ciphertext}`,
        'URL-safe base64': `${wrapped.replace(/\+/g, '-').replace(/\//g, '_')}.${ciphertext.replace(/\+/g, '-').replace(/\//g, '_')}`,
        'truncated by half': valid.slice(0, Math.floor(valid.length / 2)),
        'truncated by a character': valid.slice(0, -1),
        'truncated by a block': `${wrapped}.${ciphertext.slice(0, -24)}`,
        'ciphertext missing': `${wrapped}.`,
        'padded wrapped key': `${wrapped}=.${ciphertext}`,
        'padded ciphertext': `${wrapped}.${ciphertext}==`,
        'unpadded wrapped key': `${wrapped.replace(/=+$/, '')}.${ciphertext}`,
        'non-canonical wrapped key': `${nonCanonical(wrapped)}.${ciphertext}`,
        'non-canonical ciphertext': `${wrapped}.${nonCanonical(ciphertext)}`,
        'a line break inside': `${wrapped.slice(0, 40)}\n${wrapped.slice(40)}.${ciphertext}`,
        'random bytes': `${randomBase64(256)}.${randomBase64(64)}`,
        'random ciphertext': `${wrapped}.${randomBase64(64)}`,
        'ciphertext not in blocks': `${wrapped}.${randomBase64(21)}`,
        'swapped parts': `${ciphertext}.${wrapped}`,
        'another server key': () => encryptBody(login, otherKey.publicKey),
        'key wrapped with SHA-1': () => encryptBody(login, sha1Key),
        'a 16-character AES key': () => encryptText(JSON.stringify(login), server.serverKey, randomRequestKey(16)),
        'a 24-character AES key': () => encryptText(JSON.stringify(login), server.serverKey, randomRequestKey(24)),
        'encrypted null': () => encryptText('null', server.serverKey),
        'encrypted array': () => encryptText(JSON.stringify([login]), server.serverKey),
        'encrypted string': () => encryptText('"account"', server.serverKey),
        'encrypted number': () => encryptText('42', server.serverKey),
        'encrypted true': () => encryptText('true', server.serverKey),
        'encrypted empty text': () => encryptText('', server.serverKey),
        'encrypted broken JSON': () => encryptText('{"account": "a@b.c", "password":', server.serverKey),
        'encrypted invalid UTF-8': () => encryptText(Buffer.concat([Buffer.from('{"account":"'), Buffer.from([0xff, 0xed, 0xa0, 0x80]), Buffer.from('x","password":"p"}')]), server.serverKey),
        'encrypted nesting 100 deep': () => encryptText(`${'{"a":'.repeat(100)}1${'}'.repeat(100)}`, server.serverKey),
        'encrypted 300 KB': () => server.encrypt({ ...login, filler: 'x'.repeat(300 * 1024) }),
        'encrypted 200 KB field': () => server.encrypt({ ...login, password: 'x'.repeat(200 * 1024) }),
        'garbage 300 KB': 'A'.repeat(300 * 1024),
      };
      const targets: { path: string; token?: boolean }[] = [
        { path: paths.login }, { path: paths.register }, { path: paths.guestLogin },
        { path: paths.updatePersonalData, token: true }, { path: paths.logout, token: true },
      ];
      const shots: Shot[] = [];
      for (const [name, make] of Object.entries(bodies)) {
        for (const target of targets) {
          const body = typeof make === 'string' ? make : await make();
          shots.push({
            what: `POST ${target.path} (${name})`, method: 'POST', url: api(target.path), ip, body,
            headers: { 'content-type': 'application/json', ...tokenHeader(target) },
          });
        }
      }
      // A well-encrypted body each route refuses (so none may pass whatever parser takes it), under
      // other content types (text/plain is read as the body by design), and no body at all.
      const refusedBodies: Record<string, Record<string, unknown>> = {
        [paths.login]: login,
        [paths.register]: { accountType: 'email', account: server.uniqueEmail(), password: 'Secret123pass', code: '000000' },
        [paths.guestLogin]: { account: 'x' },
        [paths.updatePersonalData]: {},
        [paths.logout]: { unknown: true },
      };
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
        'application/json; charset=utf-16', 'application/octet-stream', 'application/xml']) {
        for (const target of targets) {
          shots.push({
            what: `POST ${target.path} (as ${contentType})`, method: 'POST', url: api(target.path), ip,
            body: await server.encrypt(refusedBodies[target.path]),
            headers: { 'content-type': contentType, ...tokenHeader(target) },
          });
        }
      }
      for (const target of targets) {
        shots.push({ what: `POST ${target.path} (no body)`, method: 'POST', url: api(target.path), ip, headers: tokenHeader(target) });
        shots.push({
          what: `POST ${target.path} (no body, JSON content type)`, method: 'POST', url: api(target.path), ip,
          headers: { 'content-type': 'application/json', ...tokenHeader(target) },
        });
        shots.push({
          what: `POST ${target.path} (Latin-1 bytes)`, method: 'POST', url: api(target.path), ip,
          body: Buffer.from([0xff, 0xfe, 0x41, 0x2e, 0x41]),
          headers: { 'content-type': 'application/json', ...tokenHeader(target) },
        });
      }
      await sendAll(category, shots);
    });
  });

  it('replays, as sent and respelt', async () => {
    const email = server.uniqueEmail();
    await probe('replays', async () => {
      expect((await server.requestEmailCode(email, 'register')).status).toBe(200);
    }, async (category) => {
      const ip = nextIp();
      // Originals that succeed once: a login, a guest creation and a registration.
      const login = { account: known.account, password: known.password };
      const originals = [
        { path: paths.login, body: login },
        { path: paths.guestLogin, body: { account: server.unique('replay_') } },
        { path: paths.register, body: { accountType: 'email', account: email, password: 'Secret123pass', code: server.latestCode(email) } },
      ];
      for (const original of originals) {
        const keyText = randomRequestKey();
        const text = await encryptText(JSON.stringify({ ...original.body, [requestTimeField]: server.clock.now().getTime() }), server.serverKey, keyText);
        const [wrapped, ciphertext] = text.split('.');
        const shot = (what: string, body: string, path: string = original.path): Shot => ({
          what: `POST ${path} (${what})`, method: 'POST', url: api(path), ip, body, headers: { 'content-type': 'application/json' },
        });
        // The same text twenty times at once: exactly one may pass.
        const answers = await Promise.all(Array.from({ length: 20 }, (_, index) =>
          send(category, { ...shot(`copy ${index + 1} of 20 at once`, text), mayPass: true })));
        const passed = answers.filter((answer) => answer.status === 200).length;
        if (passed !== 1) category.findings.push(`${original.path}: ${passed} of 20 identical bodies sent at once were accepted`);
        const resealed = await encryptText(JSON.stringify({ ...original.body, [requestTimeField]: server.clock.now().getTime() }), server.serverKey, keyText);
        const otherBody = await encryptText(JSON.stringify({ account: server.uniqueEmail(), password: 'Other1password' }), server.serverKey, keyText);
        await sendAll(category, [
          shot('the same text again', text),
          shot('with spaces around', `  ${text}\n`),
          shot('with a trailing line break', `${text}\r\n`),
          shot('wrapped key re-wrapped (same AES key)', resealed),
          shot('the same AES key under another body', otherBody),
          shot('the same AES key re-wrapped, old ciphertext', `${resealed.split('.')[0]}.${ciphertext}`),
          shot('non-canonical spelling', `${nonCanonical(wrapped)}.${ciphertext}`),
          shot('unpadded spelling', `${wrapped.replace(/=+$/, '')}.${ciphertext.replace(/=+$/, '')}`),
          shot('sent to another route', text, paths.login === original.path ? paths.guestLogin : paths.login),
          shot('sent to logout', text, paths.logout),
          shot('as text/plain', text),
        ]);
      }
      // A body from long ago (no _ts, so only the replay store stands in its way) and a stale one.
      const stale = await server.encrypt(login, server.clock.now().getTime() - 10 * 60_000);
      const noTime = await server.encrypt({ account: known.account, password: 'Wrong1password' }, null);
      await sendAll(category, [
        { what: 'POST login (stale _ts)', method: 'POST', url: api(paths.login), ip, body: stale, headers: { 'content-type': 'application/json' } },
        { what: 'POST login (no _ts)', method: 'POST', url: api(paths.login), ip, body: noTime, headers: { 'content-type': 'application/json' } },
        { what: 'POST login (no _ts, replayed)', method: 'POST', url: api(paths.login), ip, body: noTime, headers: { 'content-type': 'application/json' } },
      ]);
    });
  });

  it('control, NUL and bidirectional characters in every string field and key', async () => {
    await probe('control characters', async () => undefined, async (category) => {
      const ip = nextIp();
      const shots: Shot[] = [];
      for (const route of postRoutes) {
        for (const [field, value] of Object.entries(route.body)) {
          for (const [name, character] of Object.entries(controlCharacters)) {
            shots.push(await encryptedPost(route.path, { ...route.body, [field]: poison(String(value), character) }, ip, {
              what: `POST ${route.path} ${field} with ${name}`, headers: { 'content-type': 'application/json', ...tokenHeader(route) },
            }));
          }
        }
        for (const name of ['NUL', 'RLO', 'lone high surrogate']) {
          shots.push(await encryptedPost(route.path, { ...route.body, [`ke${controlCharacters[name]}y`]: 'value' }, ip, {
            what: `POST ${route.path} a key with ${name}`, headers: { 'content-type': 'application/json', ...tokenHeader(route) },
          }));
        }
      }
      for (const route of getRoutes) {
        const fields = Object.keys(route.query).length > 0 ? Object.entries(route.query) : [['extra', 'value']];
        for (const [field, value] of fields) {
          for (const [name, character] of queryControlCharacters) {
            shots.push({
              what: `GET ${route.path} ${field} with ${name}`, ip, headers: tokenHeader(route),
              url: api(route.path, { ...route.query, [field]: poison(value, character) }),
            });
          }
        }
        shots.push({ what: `GET ${route.path} a key with NUL`, ip, headers: tokenHeader(route), url: api(route.path, { ...route.query, 'ke\u0000y': 'v' }) });
        // A UTF-16 surrogate spelt in UTF-8 is not UTF-8: decoded (to U+FFFD) or refused, never a 500.
        const [field, value] = fields[0];
        const others = fields.slice(1).map(([key, other]) => `${key}=${encodeURIComponent(other)}`);
        const spoilt = `${field}=${encodeURIComponent(value.slice(0, 1))}%ED%A0%80${encodeURIComponent(value.slice(1))}`;
        shots.push({
          what: `GET ${route.path} ${field} with an encoded surrogate`, ip, headers: tokenHeader(route), mayPass: true,
          url: api(route.path, [spoilt, ...others].join('&')),
        });
      }
      await sendAll(category, shots);
    });
  });

  it('out-of-range numbers and time parameters', async () => {
    await probe('out-of-range numbers', async () => undefined, async (category) => {
      const ip = nextIp();
      const kline = { symbol: 'BTCUSDT', period: '1m' };
      const shots: Shot[] = [];
      const get = (what: string, path: string, query: Record<string, string> | string, extra: Partial<Shot> = {}): Shot =>
        ({ what: `GET ${path} ${what}`, url: api(path, query), ip, ...extra });
      for (const endTime of ['-1', '8640000000000001', String(timeMsMax + 1), '-1e400', 'Infinity', '-Infinity', 'NaN',
        '9'.repeat(400), '18446744073709551616', 'now', '2026-06-01']) {
        shots.push(get(`endTime=${endTime.slice(0, 24)}`, paths.kline, { ...kline, endTime }));
      }
      for (const limit of ['0', '-1', String(candleLimitMax + 1), '2147483648', '9'.repeat(40), 'abc', 'Infinity', 'NaN', '-0.5']) {
        shots.push(get(`limit=${limit.slice(0, 24)}`, paths.kline, { ...kline, limit }));
      }
      // Numbers must be plain digits in a query string (server/lib/validator.ts): TypeBox's own
      // conversion would read these with parseInt as 1.
      for (const query of [{ ...kline, endTime: '1e400' }, { ...kline, endTime: '1.5' }, { ...kline, endTime: 'true' },
        { ...kline, limit: '1e9' }, { ...kline, limit: '1.5' }]) {
        shots.push(get(`${JSON.stringify(query)}`, paths.kline, query));
      }
      // Spellings a number converter may or may not take: any answer but a 5xx or a bare one.
      for (const query of [{ ...kline, endTime: '' }, { ...kline, limit: '' }, { ...kline, endTime: '0x10' }, { ...kline, limit: '1e2' },
        { ...kline, endTime: ' 1 ' }, { ...kline, endTime: '0' }, { ...kline, endTime: String(timeMsMax) }]) {
        shots.push(get(`${JSON.stringify(query)}`, paths.kline, query, { mayPass: true }));
      }
      shots.push(get('endTime twice', paths.kline, 'symbol=BTCUSDT&period=1m&endTime=1&endTime=2', { mayPass: true }));
      shots.push(get('limit twice', paths.kline, 'symbol=BTCUSDT&period=1m&limit=1&limit=2000', { mayPass: true }));
      for (const period of ['0m', '2m', '1y', '', '1m'.repeat(100)]) shots.push(get(`period=${period.slice(0, 12)}`, paths.kline, { symbol: 'BTCUSDT', period }));
      for (const symbol of ['NOSUCH', 'A'.repeat(21), 'btcusdt', '']) {
        shots.push(get(`symbol=${symbol.slice(0, 12)}`, paths.kline, { symbol, period: '1m' }));
        shots.push(get(`symbol=${symbol.slice(0, 12)}`, paths.symbolPrice, { symbol }));
      }
      shots.push(get('path of 201 characters', paths.activeReport, { path: `/${'a'.repeat(200)}` }, { headers: { 'x-access-token': holder.token } }));
      shots.push(get('key of 65 characters', paths.settingByKey, { key: 'k'.repeat(65) }));
      // `_ts` out of range or of the wrong type; numbers where the contract has digit strings.
      const loginText = (ts: string) => `{"account":${JSON.stringify(known.account)},"password":"Wrong1password","_ts":${ts}}`;
      const now = server.clock.now().getTime();
      for (const ts of ['-1', '0', '1e308', '-1e308', String(now + server.limits.requestFreshnessMs + 1_000), String(now - server.limits.requestFreshnessMs - 1_000),
        '1e400', String(Number.MAX_SAFE_INTEGER + 2), `${now}.5e3`, `"${now}"`, 'null', 'true', '[]', '{}']) {
        shots.push({
          what: `POST login _ts=${ts.slice(0, 24)}`, method: 'POST', url: api(paths.login), ip,
          body: await encryptText(loginText(ts), server.serverKey), headers: { 'content-type': 'application/json' },
        });
      }
      const post = async (what: string, path: string, body: string, token = false): Promise<Shot> => ({
        what: `POST ${path} ${what}`, method: 'POST', url: api(path), ip,
        body: await encryptText(body.replace('}', `,"_ts":${now}}`), server.serverKey),
        headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': holder.token } : {}) },
      });
      shots.push(await post('code as a huge number', paths.emailLogin, `{"email":"${known.email}","code":999999999999999999999999}`));
      shots.push(await post('code as 1e400', paths.emailLogin, `{"email":"${known.email}","code":1e400}`));
      shots.push(await post('code of 7 digits', paths.emailLogin, `{"email":"${known.email}","code":"1234567"}`));
      shots.push(await post('phone as 1e21', paths.phoneLogin, '{"phone":1e21,"countryCode":"44","code":"123456"}'));
      shots.push(await post('phone of 16 digits', paths.phoneLogin, `{"phone":"${'9'.repeat(16)}","countryCode":"44","code":"123456"}`));
      shots.push(await post('country code -1', paths.phoneLogin, `{"phone":"${knownPhone.phone}","countryCode":-1,"code":"123456"}`));
      shots.push(await post('country code of 5 digits', paths.phoneLogin, `{"phone":"${knownPhone.phone}","countryCode":"99999","code":"123456"}`));
      shots.push(await post('birthday 99999-01-01', paths.updatePersonalData, '{"birthday":"99999-01-01"}', true));
      shots.push(await post('birthday as a number', paths.updatePersonalData, '{"birthday":19900101}', true));
      shots.push(await post('a password of 65 characters', paths.changePassword, `{"oldPassword":"${'a'.repeat(65)}","newPassword":"Renewed2password"}`, true));
      await sendAll(category, shots);
    });
  });

  it('unknown keys and wrong types', async () => {
    await probe('unknown keys, wrong types', async () => undefined, async (category) => {
      const ip = nextIp();
      const now = server.clock.now().getTime();
      const shots: Shot[] = [];
      const postText = async (route: PostRoute, what: string, json: string): Promise<Shot> => ({
        what: `POST ${route.path} ${what}`, method: 'POST', url: api(route.path), ip,
        body: await encryptText(json, server.serverKey), headers: { 'content-type': 'application/json', ...tokenHeader(route) },
      });
      const withTs = (body: Record<string, unknown>) => ({ ...body, [requestTimeField]: now });
      const inner = (body: Record<string, unknown>) => JSON.stringify(withTs(body)).slice(1, -1);
      for (const route of postRoutes) {
        const baseText = inner(route.body);
        const comma = baseText ? ',' : '';
        shots.push(await postText(route, 'an unknown key', `{${baseText}${comma}"isAdmin":true}`));
        shots.push(await postText(route, 'a __proto__ key', `{${baseText}${comma}"__proto__":{"isAdmin":true}}`));
        shots.push(await postText(route, 'a constructor key', `{${baseText}${comma}"constructor":{"prototype":{"isAdmin":true}}}`));
        shots.push(await postText(route, 'a 50 kB unknown key', `{${baseText}${comma}"${'k'.repeat(50_000)}":"v"}`));
        for (const field of Object.keys(route.body)) {
          for (const [name, wrong] of Object.entries({ number: 123456, boolean: true, null: null, array: [route.body[field]], object: { value: route.body[field] }, 'empty string': '' })) {
            shots.push(await postText(route, `${field} as ${name}`, JSON.stringify(withTs({ ...route.body, [field]: wrong }))));
          }
        }
      }
      for (const route of getRoutes) {
        const headers = tokenHeader(route);
        // A route without a query schema ignores keys it does not know; one with a schema refuses them.
        shots.push({ what: `GET ${route.path} an unknown key`, ip, headers, url: api(route.path, { ...route.query, isAdmin: 'true' }), mayPass: !route.schema });
        shots.push({ what: `GET ${route.path} a __proto__ key`, ip, headers, url: `${api(route.path, route.query)}${Object.keys(route.query).length ? '&' : '?'}__proto__=x&constructor[prototype][x]=1`, mayPass: !route.schema });
        shots.push({ what: `GET ${route.path} a bracketed key`, ip, headers, url: `${api(route.path, route.query)}${Object.keys(route.query).length ? '&' : '?'}a[b]=c&c[]=1`, mayPass: !route.schema });
        for (const field of Object.keys(route.query)) {
          const value = encodeURIComponent(route.query[field]);
          const rest = Object.entries(route.query).filter(([key]) => key !== field)
            .map(([key, other]) => `${key}=${encodeURIComponent(other)}`).join('&');
          // A field given twice (an array) or empty: refused or taken, never a 500.
          shots.push({ what: `GET ${route.path} ${field} twice`, ip, headers, url: api(route.path, `${rest}&${field}=${value}&${field}=${value}`), mayPass: true });
          shots.push({ what: `GET ${route.path} ${field} empty`, ip, headers, url: api(route.path, `${rest}&${field}=`), mayPass: true });
          shots.push({ what: `GET ${route.path} ${field} missing its value`, ip, headers, url: api(route.path, `${rest}&${field}`), mayPass: true });
          shots.push({ what: `GET ${route.path} ${field} of 5000 characters`, ip, headers, url: api(route.path, `${rest}&${field}=${'x'.repeat(5000)}`) });
        }
      }
      await sendAll(category, shots);
    });
  });

  it('login guessing in parallel', async () => {
    const guest = server.unique('guess_');
    await probe('login guessing', async () => {
      expect((await server.post(paths.guestLogin, { account: guest })).status).toBe(200);
      return { victim: await server.registerByEmail(), stolen: await server.registerByEmail() };
    }, async (category, { victim, stolen }) => {
      const guess = (account: string, index: number, ip: string, extra: Record<string, unknown> = {}) =>
        encryptedPost(paths.login, { account, password: `Wrong${index}password`, ...extra }, ip);
      const oneAddress = nextIp();
      const shots: Shot[] = [];
      for (let index = 0; index < 60; index += 1) shots.push(await guess(victim.account, index, oneAddress));
      for (let index = 0; index < 40; index += 1) shots.push(await guess(victim.account.toUpperCase(), index, nextIp()));
      const guestAddress = nextIp();
      for (let index = 0; index < 30; index += 1) {
        shots.push(await guess([guest, guest.toUpperCase(), ` ${guest}`][index % 3], index, guestAddress));
      }
      const phoneAddress = nextIp();
      for (let index = 0; index < 20; index += 1) {
        const spelling = [{ account: knownPhone.phone! }, { account: `+44${knownPhone.phone}` }, { account: `0${knownPhone.phone}`, countryCode: '44' },
          { account: `0044${knownPhone.phone}` }][index % 4];
        shots.push(await guess(spelling.account, index, phoneAddress, spelling.countryCode ? { countryCode: spelling.countryCode } : {}));
      }
      // Wrong current passwords from a stolen session, all at once.
      const stolenAddress = nextIp();
      for (let index = 0; index < 40; index += 1) {
        shots.push(await encryptedPost(paths.changePassword, { oldPassword: `Wrong${index}password`, newPassword: 'Stolen7password' }, stolenAddress,
          { headers: { 'content-type': 'application/json', 'x-access-token': stolen.token } }));
      }
      await sendAll(category, shots, 40);
    });
  });

  it('enumeration probes: known and unknown accounts answer alike', async () => {
    await probe('enumeration', async () => {
      const accounts = { knownEmail: await server.registerByEmail(), knownPhoneAccount: await server.registerByPhone(server.uniquePhone(), '44') };
      server.clock.advance(server.limits.codeResendIntervalMs);
      return accounts;
    }, async (category, { knownEmail, knownPhoneAccount }) => {
      const strangerEmail = server.uniqueEmail();
      const strangerPhone = server.uniquePhone();
      const email = (which: 'known' | 'unknown') => (which === 'known' ? knownEmail.email! : strangerEmail);
      const phone = (which: 'known' | 'unknown') => (which === 'known' ? knownPhoneAccount.phone! : strangerPhone);
      type Ask = { what: string; shot: (which: 'known' | 'unknown') => Promise<Shot> };
      const asks: Ask[] = [];
      for (const type of ['register', 'login', 'reset']) {
        for (const round of ['first', 'again']) {
          asks.push({ what: `getEmailCaptcha ${type} ${round}`, shot: async (which) => ({ what: `GET getEmailCaptcha ${type} (${which}, ${round})`, url: api(paths.emailCaptcha, { email: email(which), type }), ip: nextIp(), mayPass: true }) });
          asks.push({ what: `getPhoneCaptcha ${type} ${round}`, shot: async (which) => ({ what: `GET getPhoneCaptcha ${type} (${which}, ${round})`, url: api(paths.phoneCaptcha, { phone: phone(which), countryCode: '44', type }), ip: nextIp(), mayPass: true }) });
        }
      }
      const post = (what: string, path: string, body: (which: 'known' | 'unknown') => Record<string, unknown>) =>
        ({ what, shot: (which: 'known' | 'unknown') => encryptedPost(path, body(which), nextIp(), { what: `POST ${what} (${which})` }) });
      for (let round = 1; round <= 3; round += 1) {
        asks.push(post(`login wrong password ${round}`, paths.login, (which) => ({ account: email(which), password: 'Wrong1password' })));
        asks.push(post(`login phone wrong password ${round}`, paths.login, (which) => ({ account: phone(which), countryCode: '44', password: 'Wrong1password' })));
        asks.push(post(`register wrong code ${round}`, paths.register, (which) => ({ accountType: 'email', account: email(which), password: 'Secret123pass', code: '000000' })));
        asks.push(post(`register phone wrong code ${round}`, paths.register, (which) => ({ accountType: 'phone', account: phone(which), countryCode: '44', password: 'Secret123pass', code: '000000' })));
        asks.push(post(`resetPassword wrong code ${round}`, paths.resetPassword, (which) => ({ accountType: 'email', account: email(which), password: 'Renewed2password', code: '000000' })));
        asks.push(post(`emailLogin wrong code ${round}`, paths.emailLogin, (which) => ({ email: email(which), code: '000000' })));
        asks.push(post(`phoneLogin wrong code ${round}`, paths.phoneLogin, (which) => ({ phone: phone(which), countryCode: '44', code: '000000' })));
      }
      for (const ask of asks) {
        const knownAnswer = await send(category, await ask.shot('known'));
        const unknownAnswer = await send(category, await ask.shot('unknown'));
        if (knownAnswer.status !== unknownAnswer.status || withoutTime(knownAnswer.text) !== withoutTime(unknownAnswer.text)) {
          category.findings.push(`${ask.what}: known ${knownAnswer.status} ${withoutTime(knownAnswer.text)} vs unknown ${unknownAnswer.status} ${withoutTime(unknownAnswer.text)}`);
        }
      }
    });
  });

  it('header and URL abuse', async () => {
    await probe('headers and URLs', async () => undefined, async (category) => {
      const ip = nextIp();
      const raw = (what: string, request: string | Buffer): Shot => ({ what, raw: request, ip });
      const get = (target: string, headers = '') =>
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Connection: close\r\n\r\n`;
      const time = api(paths.serverTime);
      const upgrade = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';
      const body = await server.encrypt({ account: known.account, password: 'Wrong1password' });
      const shots: Shot[] = [
        raw('one header of 20 kB', get(time, `X-Big: ${'a'.repeat(20_000)}\r\n`)),
        raw('200 headers of 100 bytes', get(time, Array.from({ length: 200 }, (_, index) => `X-H${index}: ${'b'.repeat(100)}\r\n`).join(''))),
        raw('a 20 kB cookie', get(time, `Cookie: a=${'c'.repeat(20_000)}\r\n`)),
        raw('a URL of 20 kB', get(`${time}?x=${'u'.repeat(20_000)}`)),
        raw('a token of 8 kB', get(api(paths.myUserInfo), `X-Access-Token: ${'t'.repeat(8_000)}\r\n`)),
        raw('a token with UTF-8 bytes', Buffer.from(get(api(paths.myUserInfo), 'X-Access-Token: \u202Eabc\u00e9\r\n'), 'utf8')),
        raw('a token with NUL', get(api(paths.myUserInfo), 'X-Access-Token: ab\u0000c\r\n')),
        raw('two tokens', get(api(paths.myUserInfo), `X-Access-Token: ${holder.token.slice(0, 10)}\r\nX-Access-Token: x\r\n`)),
        raw('a header name with a space', get(time, 'Bad Header: x\r\n')),
        raw('a header without a colon', get(time, 'NoColonHere\r\n')),
        raw('a bare LF line end', `GET ${time} HTTP/1.1\nHost: x\n\n`),
        { ...raw('forged X-Forwarded-For (ignored: no proxy is trusted)', get(time, 'X-Forwarded-For: 1.2.3.4, <script>, ::1\r\n')), mayPass: true },
        raw('bad percent-encoding in the path', get(`${apiPrefix}/public/%E0%A4%A`)),
        raw('a lone % in the path', get(`${apiPrefix}/public/%`)),
        raw('%zz in the path', get(`${apiPrefix}/app/%zz`)),
        raw('%00 in the path', get(`${time}%00`)),
        raw('an encoded slash', get(`${apiPrefix}/public%2FgetServerTime`)),
        // The query parser keeps a malformed escape as text: the account is then an unknown name.
        { ...raw('bad percent-encoding in the query', get(api(paths.checkAccount, 'account=%E0%A4%A'))), mayPass: true },
        { ...raw('a lone % in the query', get(api(paths.checkAccount, 'account=abc%'))), mayPass: true },
        raw('/API/ upper case', get(`/API${paths.serverTime}`)),
        raw('/Api/ mixed case', get(`/Api${paths.login}`)),
        raw('upper-case route', get(`${apiPrefix}${paths.serverTime.toUpperCase()}`)),
        raw('a double slash', get(`${apiPrefix}/${paths.serverTime}`)),
        raw('a trailing slash', get(`${time}/`)),
        raw('dot segments', get(`${apiPrefix}/public/../../etc/passwd`)),
        raw('encoded dot segments', get(`${apiPrefix}/public/%2e%2e/%2e%2e/etc/passwd`)),
        { ...raw('an absolute URL target (valid HTTP)', get(`http://evil.example${time}`)), mayPass: true },
        raw('an asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
        raw('an upgrade on a non-socket route', get(time, upgrade).replace('Connection: close\r\n', '')),
        raw('an upgrade on a POST route', `POST ${api(paths.login)} HTTP/1.1\r\nHost: x\r\n${upgrade}Content-Length: 0\r\n\r\n`),
        raw('an h2c upgrade', get(time, 'Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n').replace('Connection: close', 'Connection: Upgrade, HTTP2-Settings')),
        raw('not a request', 'NOT A REQUEST\r\n\r\n'),
        raw('binary garbage', fixedBytes(512, 'garbage')),
        // Node's own refusal is off (requireHostHeader: false); the app answers it in the envelope.
        raw('HTTP/1.1 without Host', `GET ${time} HTTP/1.1\r\nConnection: close\r\n\r\n`),
        // Node's parser reads these leniently as HTTP/1.x requests.
        { ...raw('HTTP/0.9', `GET ${time}\r\n\r\n`), mayPass: true },
        { ...raw('HTTP/2.0 in an HTTP/1 request line', `GET ${time} HTTP/2.0\r\nHost: x\r\n\r\n`), mayPass: true },
        raw('Content-Length and Transfer-Encoding', `POST ${api(paths.login)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`),
        raw('two Content-Lengths', `POST ${api(paths.login)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nContent-Length: 6\r\nConnection: close\r\n\r\nhello!`),
        raw('a negative Content-Length', `POST ${api(paths.login)} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\nConnection: close\r\n\r\n`),
        raw('a bad chunk size', `POST ${api(paths.login)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nZZ\r\nhello\r\n0\r\n\r\n`),
        raw('a Content-Length beyond the body limit', `POST ${api(paths.login)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\nConnection: close\r\n\r\n${'a'.repeat(300 * 1024)}`),
        raw('Expect: 100-continue for a huge body', `POST ${api(paths.login)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`),
        raw('a strange Expect', `POST ${api(paths.login)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 200-ok\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`),
        raw('gzip-encoded body that is not gzip', `POST ${api(paths.login)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`),
        { ...raw('a JSON body on a GET (ignored)', `GET ${time} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{"not":"ok"}x`), mayPass: true },
      ];
      for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO']) {
        shots.push(raw(`${method} on POST login`, `${method} ${api(paths.login)} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`));
        shots.push(raw(`${method} on GET getServerTime`, `${method} ${time} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`));
      }
      shots.push(raw('GET on POST login', get(api(paths.login))));
      shots.push(raw('POST on GET getServerTime', `POST ${time} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`));
      shots.push(raw('CONNECT', 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\nConnection: close\r\n\r\n'));
      await sendAll(category, shots);
    });
  });

  it('rate-limit floods: code sends, checkAccount, register, guests, logins', async () => {
    await probe('rate-limit floods', async () => undefined, async (category) => {
      const limits = server.limits;
      const countOk = (answers: Answer[]) => answers.filter((answer) => answer.status === 200).length;
      const limitHolds = (what: string, answers: Answer[], allowed: number) => {
        const passed = countOk(answers);
        if (passed > allowed) category.findings.push(`${what}: ${passed} accepted, limit ${allowed}`);
        const others = answers.filter((answer) => answer.status !== 200 && answer.status !== 429 && answer.status !== 400);
        if (others.length) category.findings.push(`${what}: unexpected statuses ${others.map((answer) => answer.status).join(',')}`);
        if (!answers.some((answer) => answer.status === 429)) category.findings.push(`${what}: no 429 in ${answers.length}`);
      };
      // Code sends from one address to many targets, and to one target from many addresses.
      const codeAddress = nextIp();
      const sends = await sendAll(category, Array.from({ length: limits.codeSendsPerIpPerHour + 10 }, () => ({
        what: 'GET getEmailCaptcha (one address)', url: api(paths.emailCaptcha, { email: server.uniqueEmail(), type: 'register' }), ip: codeAddress, mayPass: true,
      })), 10);
      limitHolds('code sends per address', sends, limits.codeSendsPerIpPerHour);
      const target = server.uniqueEmail();
      const toOne = await sendAll(category, Array.from({ length: 12 }, () => ({
        what: 'GET getEmailCaptcha (one target)', url: api(paths.emailCaptcha, { email: target, type: 'register' }), ip: nextIp(), mayPass: true,
      })), 12);
      limitHolds('code sends to one target', toOne, 1);
      const phoneTarget = server.uniquePhone();
      const toOnePhone = await sendAll(category, ['44', '044', '0044', '44'].flatMap((countryCode) => [0, 1].map(() => ({
        what: `GET getPhoneCaptcha (one phone, +${countryCode})`, url: api(paths.phoneCaptcha, { phone: phoneTarget, countryCode, type: 'register' }), ip: nextIp(), mayPass: true,
      }))), 8);
      limitHolds('code sends to one phone, country code respelt', toOnePhone.filter((answer) => answer.status !== 400), 1);
      // checkAccount from one address.
      const checkAddress = nextIp();
      const checks = await sendAll(category, Array.from({ length: limits.checkAccountPerIpPerMinute + 15 }, (_, index) => ({
        what: 'GET checkAccount', url: api(paths.checkAccount, { account: index % 2 ? known.account : server.uniqueEmail() }), ip: checkAddress, mayPass: true,
      })), 10);
      limitHolds('checkAccount per address', checks, limits.checkAccountPerIpPerMinute);
      // Junk registrations (wrong codes) from one address: none passes, the limit answers 429.
      const registerAddress = nextIp();
      const registers: Shot[] = [];
      for (let index = 0; index < limits.codeChecksPerIpPerHour + 20; index += 1) {
        registers.push(await encryptedPost(paths.register, { accountType: 'email', account: server.uniqueEmail(), password: 'Secret123pass', code: '123456' }, registerAddress));
      }
      limitHolds('junk registrations per address', await sendAll(category, registers, 10), 0);
      // Guest accounts from one address.
      const guestAddress = nextIp();
      const guests: Shot[] = [];
      for (let index = 0; index < limits.guestCreationsPerIpPerHour + 5; index += 1) {
        guests.push({ ...await encryptedPost(paths.guestLogin, { account: server.unique('flood_') }, guestAddress), mayPass: true });
      }
      limitHolds('guest creations per address', await sendAll(category, guests, 5), limits.guestCreationsPerIpPerHour);
      // Logins of unknown accounts from one address.
      const loginAddress = nextIp();
      const logins: Shot[] = [];
      for (let index = 0; index < limits.loginAttemptsPerIpPerMinute + 10; index += 1) {
        logins.push(await encryptedPost(paths.login, { account: server.uniqueEmail(), password: 'Wrong1password' }, loginAddress));
      }
      limitHolds('logins per address', await sendAll(category, logins, 10), 0);
    });
  });
}, { databases: 'embedded' });
