// The harness of the server tests: every suite builds the real app (buildApp) on a database of
// its own, on PGlite always and on PostgreSQL too when TEST_DATABASE_URL is set, and drives it
// through the real protocol: bodies encrypted as the client encrypts them, `_ts` holding the
// server's time, the token in X-Access-Token, codes read from the dev outbox files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createScratchDatabase, dropScratchDatabase } from '../support/scratchDatabase.ts';
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { buildApp, type BuiltApp } from '../../server/app.ts';
import { redisClient } from '../../server/lib/redisClient.ts';
import { loadConfig, parseTrustProxy, type Limits } from '../../server/lib/config.ts';
import { openDatabase, pgliteTemplate, type Database, type Db } from '../../server/db/client.ts';
import { seed } from '../../server/seed.ts';
import { sessions, users, verificationCodes } from '../../server/db/schema.ts';
import { createKeys, type ServerKeys } from '../../server/plugins/encryption.ts';
import type { Services } from '../../server/domain/kernel/services.ts';
import type { RealtimeSettings } from '../../server/plugins/realtime/settings.ts';
import { encryptBody, importServerKey } from '../../src/api/crypto.ts';
import { apiPrefix, paths, requestTimeField } from '../../src/api/contract/paths.ts';
import type { CodePurpose } from '../../src/api/contract/accounts.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** The databases every suite runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * The databases of a suite that declared `databases: 'embedded'` (issue 20): its subject is the
 * protocol above the database (framing, encryption, sessions' and codes' rules, push delivery,
 * realtime sockets, uploads), which runs the same on either, so the PostgreSQL pass, ~40 % of the
 * server tests' time, is kept for the suites where the database matters: locking, concurrency,
 * the ledger, money, migrations and SQL. TEST_ALL_DATABASES=1 runs every suite on both.
 */
const embeddedOnlyKinds: DatabaseKind[] = process.env.TEST_ALL_DATABASES === '1' ? databaseKinds : ['pglite'];

/** The instant every suite's clock starts at; tests move it with `clock.advance`. */
export const clockStart = new Date('2026-06-01T04:00:00.000Z');

export class TestClock {
  #nowMs: number;
  constructor(start: Date = clockStart) { this.#nowMs = start.getTime(); }
  now = () => new Date(this.#nowMs);
  advance(ms: number) {
    if (!(ms >= 0)) throw new Error(`the test clock only moves forward (asked for ${ms} ms)`);
    this.#nowMs += ms;
  }
}

// Generating a 2048-bit RSA key and migrating a fresh PGlite each take a noticeable moment,
// so each test worker does them once and every suite in it shares the results.
let workerKeys: ServerKeys | undefined;
let workerTemplate: Promise<Blob | File> | undefined;
const keysOfWorker = () => (workerKeys ??= createKeys());
const templateOfWorker = () => (workerTemplate ??= cachedPgliteTemplate());

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const templateCacheDir = path.join(projectRoot, 'node_modules', '.cache', 'bourse-server-tests');

/**
 * The migrated template, kept on disk between workers and runs: every test file runs in a fresh
 * worker, and migrating a new PGlite costs seconds where loading the dump costs a fraction of one.
 * The file name carries a digest of the migrations and of the PGlite and Drizzle versions, so a
 * change to any of them makes a new template.
 */
async function cachedPgliteTemplate(): Promise<Blob | File> {
  const file = templateCacheFile();
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)], { type: 'application/x-tar' });
  const template = await pgliteTemplate();
  fs.mkdirSync(templateCacheDir, { recursive: true });
  for (const old of fs.readdirSync(templateCacheDir)) {
    const stale = old.startsWith('pglite-template-') && old.endsWith('.tar') && path.join(templateCacheDir, old) !== file;
    if (stale) fs.rmSync(path.join(templateCacheDir, old), { force: true });
  }
  // Written aside and renamed, so a worker running alongside never reads half a file.
  const partial = `${file}.${uniqueSuffix()}.partial`;
  fs.writeFileSync(partial, Buffer.from(await template.arrayBuffer()));
  fs.renameSync(partial, file);
  return template;
}

function templateCacheFile(): string {
  const digest = createHash('sha256');
  const migrations = path.join(projectRoot, 'server', 'db', 'migrations');
  for (const file of fs.readdirSync(migrations, { recursive: true }).map(String).sort()) {
    const full = path.join(migrations, file);
    if (fs.statSync(full).isFile()) digest.update(file).update(fs.readFileSync(full));
  }
  for (const name of ['@electric-sql/pglite', 'drizzle-orm']) {
    digest.update(fs.readFileSync(path.join(projectRoot, 'node_modules', name, 'package.json')));
  }
  return path.join(templateCacheDir, `pglite-template-${digest.digest('hex').slice(0, 16)}.tar`);
}

function uniqueSuffix() {
  return `${process.pid}_${randomBytes(6).toString('hex')}`;
}

/**
 * A PGlite data directory on disk at `dir`, migrated (from the template: seconds less than a first
 * start migrating it), as a server or the operator CLI finds it after its first start.
 */
export async function migratedPgliteDir(dir: string): Promise<void> {
  const database = await openDatabase({ pgliteDir: dir, pgliteLoadDataDir: await templateOfWorker() });
  await database.close();
}

export interface OpenedDatabase { database: Database; drop(): Promise<void> }

/** A fresh migrated database of `kind` (not seeded), and how to drop it. */
export async function openTestDatabase(kind: DatabaseKind): Promise<OpenedDatabase> {
  if (kind === 'pglite') {
    try {
      return { database: await openDatabase({ pgliteLoadDataDir: await templateOfWorker() }), drop: async () => {} };
    } catch (error) {
      // A template that does not load (say, a damaged cache file): forget it and migrate afresh.
      console.warn('PGlite template did not load, using a fresh database:', error);
      fs.rmSync(templateCacheFile(), { force: true });
      return { database: await openDatabase({ pgliteDir: 'memory://' }), drop: async () => {} };
    }
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `bourse_t_${uniqueSuffix()}`;
  const drop = () => dropScratchDatabase(adminUrl, name);
  const url = await createScratchDatabase(adminUrl, name);
  try {
    return { database: await openDatabase({ databaseUrl: url }), drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

export interface Reply<T = any> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The parsed JSON answer (an envelope for every /api path). */
  body: T;
}

export interface RequestOptions {
  token?: string;
  /** The caller's address; each test gets a fresh one so per-address limits do not leak between tests. */
  ip?: string;
  headers?: Record<string, string>;
}

export interface PostOptions extends RequestOptions {
  /** `_ts` to send: the server's time by default; `null` leaves the field out. */
  ts?: number | null;
}

export interface SuiteOptions {
  /** Limits that differ from the defaults for this suite. */
  limits?: Partial<Limits>;
  /** Realtime socket settings that differ from the defaults (a short heartbeat, say). */
  realtime?: Partial<RealtimeSettings>;
  /** TRUST_PROXY as the server would read it ("1", a list of proxies). */
  trustProxy?: string;
  /** Redis for the rate limits, connected as the server connects it (an outage proxy, say). */
  redisUrl?: string;
  /**
   * How long a Redis command may take before the caller gives up (server/lib/redisClient.ts; 1 s
   * by default). The outage tests shorten it: each call to a hung Redis costs that long.
   */
  redisCommandTimeoutMs?: number;
  /**
   * 'embedded': the suite tests what runs the same on any database and runs on PGlite only (see
   * embeddedOnlyKinds); 'all' (the default): on every database of databaseKinds.
   */
  databases?: 'all' | 'embedded';
}

export interface Account {
  token: string;
  password: string;
  /** What the password login form sends as `account`. */
  account: string;
  email?: string;
  phone?: string;
  countryCode?: string;
}

/** One built app on one database, with the protocol client the tests drive it through. */
export class TestServer {
  app!: FastifyInstance;
  services!: Services;
  /** The app's market read side and the bus it listens on (tests drive an engine on it). */
  market!: BuiltApp['market'];
  marketBus!: BuiltApp['marketBus'];
  database!: Database;
  redis: Redis | undefined;
  dataDir!: string;
  readonly clock = new TestClock();
  #serverKey!: CryptoKey;
  #drop!: () => Promise<void>;
  #ipCounter = 0;
  #defaultIp = '10.0.0.1';
  #uniqueCounter = 0;
  #databaseClosed = false;

  constructor(readonly kind: DatabaseKind, readonly options: SuiteOptions = {}) {}

  get db(): Db { return this.services.db; }
  /** The server's public key as the client imported it. */
  get serverKey(): CryptoKey { return this.#serverKey; }
  get limits(): Limits { return this.services.limits; }

  async start() {
    this.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bourse-test-${this.kind}-`));
    const opened = await openTestDatabase(this.kind);
    this.database = opened.database;
    this.#drop = opened.drop;
    await seed(this.database.db, { demo: false });
    await this.#build();
  }

  /** Closes the app and builds a new one on the same database, keys and clock: a server restart. */
  async restartApp() {
    await this.app.close();
    await this.#build();
  }

  async #build() {
    const config = { ...loadConfig({}), dataDir: this.dataDir, webRoot: path.join(this.dataDir, 'no-web') };
    config.limits = { ...config.limits, ...this.options.limits };
    config.trustProxy = parseTrustProxy(this.options.trustProxy);
    this.redis?.disconnect();
    this.redis = this.options.redisUrl
      ? redisClient(this.options.redisUrl, () => {}, this.options.redisCommandTimeoutMs ? { commandTimeout: this.options.redisCommandTimeoutMs } : {})
      : undefined;
    const built = await buildApp({
      config, database: this.database, keys: keysOfWorker(), clock: this.clock, logger: false, realtime: this.options.realtime,
      redis: this.redis,
    });
    this.app = built.app;
    this.services = built.services;
    this.market = built.market;
    this.marketBus = built.marketBus;
    await this.app.ready();
    // The key comes the way the client gets it: from the public endpoint.
    const answer = await this.get(paths.publicKey);
    if (answer.status !== 200) throw new Error(`getPublicKey answered ${answer.status}`);
    this.#serverKey = await importServerKey(answer.body.result as string);
  }

  /** Closes the database under the running app (to see how the app copes); stop() skips it then. */
  async closeDatabase() {
    if (this.#databaseClosed) return;
    this.#databaseClosed = true;
    await this.database.close();
  }

  async stop() {
    await this.app?.close();
    this.redis?.disconnect();
    if (this.database) await this.closeDatabase();
    await this.#drop?.();
    if (this.dataDir) fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** A fresh caller address, made the default for requests that do not name one. */
  freshIp(): string {
    this.#ipCounter += 1;
    this.#defaultIp = `10.${(this.#ipCounter >> 16) & 255}.${(this.#ipCounter >> 8) & 255}.${this.#ipCounter & 255}`;
    return this.#defaultIp;
  }

  unique(prefix: string): string {
    this.#uniqueCounter += 1;
    return `${prefix}${this.#uniqueCounter}${randomBytes(3).toString('hex')}`;
  }
  uniqueEmail(): string { return `${this.unique('user')}@example.com`; }
  uniquePhone(): string {
    this.#uniqueCounter += 1;
    return `7${String(this.#uniqueCounter).padStart(3, '0')}${String(randomBytes(3).readUIntBE(0, 3) % 1_000_000).padStart(6, '0')}`;
  }

  async get(pathUnderApi: string, query: Record<string, string> = {}, options: RequestOptions = {}): Promise<Reply> {
    const response = await this.app.inject({
      method: 'GET', url: `${apiPrefix}${pathUnderApi}`, query,
      headers: this.#headers(options), remoteAddress: options.ip ?? this.#defaultIp,
    });
    return { status: response.statusCode, headers: response.headers, body: parse(response.body) };
  }

  /** Encrypts `body` exactly as the client does (with `_ts` added, unless `ts` is null) and posts it. */
  async post(pathUnderApi: string, body: Record<string, unknown> = {}, options: PostOptions = {}): Promise<Reply> {
    return this.postRaw(pathUnderApi, await this.encrypt(body, options.ts), options);
  }

  async encrypt(body: Record<string, unknown>, ts?: number | null): Promise<string> {
    const withTime = ts === null ? body : { ...body, [requestTimeField]: ts ?? this.clock.now().getTime() };
    return encryptBody(withTime, this.#serverKey);
  }

  /** Posts a body as given: for replayed, tampered or unencrypted bodies. */
  async postRaw(pathUnderApi: string, payload: string, options: RequestOptions = {}): Promise<Reply> {
    const response = await this.app.inject({
      method: 'POST', url: `${apiPrefix}${pathUnderApi}`, payload,
      headers: { 'content-type': 'application/json', ...this.#headers(options) },
      remoteAddress: options.ip ?? this.#defaultIp,
    });
    return { status: response.statusCode, headers: response.headers, body: parse(response.body) };
  }

  #headers(options: RequestOptions): Record<string, string> {
    return { ...(options.token ? { 'x-access-token': options.token } : {}), ...options.headers };
  }

  /** Every message the dev outbox holds for an address, oldest first. */
  outbox(to?: string): OutboxMessage[] {
    const dir = path.join(this.dataDir, 'outbox');
    if (!fs.existsSync(dir)) return [];
    return fs.readdirSync(dir).filter((file) => file.endsWith('.json')).map((file) => {
      const match = /^(.+?)(?:-(\d+))?-(email|sms)\.json$/.exec(file);
      if (!match) throw new Error(`unexpected outbox file ${file}`);
      const message = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as OutboxMessage;
      return { ...message, order: [match[1], Number(match[2] ?? 0)] as const };
    }).filter((message) => to === undefined || message.to === to)
      .sort((a, b) => a.order[0].localeCompare(b.order[0]) || a.order[1] - b.order[1])
      .map(({ order: _order, ...message }) => message);
  }

  /** The newest code the outbox holds for an address: how a user reads it off the message. */
  latestCode(to: string): string {
    const messages = this.outbox(to);
    if (messages.length === 0) throw new Error(`no code was sent to ${to}`);
    return messages[messages.length - 1].code;
  }

  async requestEmailCode(email: string, type: CodePurpose, options: RequestOptions = {}) {
    return this.get(paths.emailCaptcha, { email, type }, options);
  }

  async requestPhoneCode(phone: string, countryCode: string, type: CodePurpose, options: RequestOptions = {}) {
    return this.get(paths.phoneCaptcha, { phone, countryCode, type }, options);
  }

  /** Registers an e-mail account through the real flow (code from the outbox). */
  async registerByEmail(email = this.uniqueEmail(), password = 'Secret123pass'): Promise<Account> {
    expectOk(await this.requestEmailCode(email, 'register'));
    const answer = expectOk(await this.post(paths.register, {
      accountType: 'email', account: email, password, code: this.latestCode(email),
    }));
    return { token: answer.body.result.token, password, account: email, email };
  }

  async registerByPhone(phone = this.uniquePhone(), countryCode = '44', password = 'Secret123pass'): Promise<Account> {
    expectOk(await this.requestPhoneCode(phone, countryCode, 'register'));
    const answer = expectOk(await this.post(paths.register, {
      accountType: 'phone', account: phone, countryCode, password, code: this.latestCode(`+${countryCode}${phone}`),
    }));
    return { token: answer.body.result.token, password, account: phone, phone, countryCode };
  }

  async count(table: 'users' | 'sessions' | 'verification_codes' | 'request_replay_keys'): Promise<number> {
    const result = await this.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
    const rows = (result as unknown as { rows: { n: number }[] }).rows;
    return Number(rows[0].n);
  }

  async userByEmail(email: string) {
    const [row] = await this.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    return row;
  }

  async userByUsername(username: string) {
    const [row] = await this.db.select().from(users).where(eq(users.username, username));
    return row;
  }

  async sessionsOf(userId: bigint) {
    return this.db.select().from(sessions).where(eq(sessions.userId, userId));
  }

  /** Verification code rows of a normalised target ("a@b.c" or "+44 7123..."), oldest first. */
  async codesOf(target: string) {
    return this.db.select().from(verificationCodes).where(eq(verificationCodes.target, target)).orderBy(verificationCodes.id);
  }

  async query<T = Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T[]> {
    const result = await this.db.execute(query);
    return (result as unknown as { rows: T[] }).rows;
  }
}

export interface OutboxMessage { to: string; channel: 'email' | 'sms'; text: string; code: string }

function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Fails with the server's answer when it is not a success envelope. */
export function expectOk(reply: Reply): Reply {
  if (reply.status !== 200 || reply.body?.success !== true || reply.body?.code !== 200) {
    throw new Error(`expected success, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  }
  return reply;
}

/**
 * Runs `suite` once per database kind, each on a server of its own: built before the suite's
 * first test, closed (database dropped, temp dir removed) after its last. Each test starts from
 * a fresh caller address.
 */
export function forEachDatabase(suite: (server: TestServer) => void, options: SuiteOptions = {}) {
  for (const kind of options.databases === 'embedded' ? embeddedOnlyKinds : databaseKinds) {
    describe(`on ${kind}`, () => {
      const server = new TestServer(kind, options);
      beforeAll(() => server.start());
      afterAll(() => server.stop());
      beforeEach(() => { server.freshIp(); });
      suite(server);
    });
  }
}

/**
 * Asserts a refusal: the HTTP status (a user error, below 500), the same code in the envelope,
 * the stable `result.error` and a readable message without internals.
 */
export function expectRefused(reply: Reply, status: number, error: string) {
  if (reply.status !== status || reply.body?.result?.error !== error) {
    throw new Error(`expected ${status} ${error}, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  }
  if (status >= 500) throw new Error('a refusal is a user error, below 500');
  const { success, code, message } = reply.body as { success: unknown; code: unknown; message: unknown };
  if (success !== false || code !== status) throw new Error(`bad failure envelope: ${JSON.stringify(reply.body)}`);
  if (typeof message !== 'string' || message.length < 6 || /\bat .+\.(ts|js):\d+|Error:/.test(message)) {
    throw new Error(`unclear message: ${JSON.stringify(message)}`);
  }
}
