// Helpers of the realtime tests: a WebSocket client (the `ws` package, as a browser would connect)
// that queues what the server sends and waits for a matching message with a bounded wait, and a
// market engine driven tick by tick on a test server's clock and bus.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import WebSocket, { type ClientOptions } from 'ws';
import type { FastifyInstance } from 'fastify';
import { MarketEngine, seededSimulator, simulatorSource } from '../../server/domain/core/market/engine.ts';
import { symbolByCode } from '../../server/domain/core/market/symbols.ts';
import { apiPrefix } from '../../src/api/contract/paths.ts';
import { realtimePath, type ServerMessage } from '../../src/api/contract/market.ts';
import { afterEach } from 'vitest';
import type { TestServer } from './helpers.ts';

/** Every wait in these tests is bounded by this; none asserts on elapsed time. */
export const waitLimitMs = 15_000;

export function socketUrl(app: FastifyInstance): string {
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}${apiPrefix}${realtimePath}`;
}

export interface Closed { code: number; reason: string }
export type ChannelMessage = Extract<ServerMessage, { type: 'snapshot' | 'update' }>;

export class SocketClient {
  /** Messages received and not yet taken by `next`, oldest first. */
  readonly unread: ServerMessage[] = [];
  readonly closed: Promise<Closed>;
  /** Frames and payload bytes received since the socket opened (what the server sent). */
  readonly received = { frames: 0, bytes: 0 };
  #waiters = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.received.frames += 1;
      this.received.bytes += Buffer.isBuffer(data) ? data.length : Buffer.byteLength(String(data));
      this.unread.push(JSON.parse(String(data)) as ServerMessage);
      for (const wake of [...this.#waiters]) wake();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        resolve({ code, reason: String(reason) });
        for (const wake of [...this.#waiters]) wake();
      });
    });
  }

  static async connect(url: string, options: ClientOptions = {}): Promise<SocketClient> {
    const socket = new WebSocket(url, options);
    const client = new SocketClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  send(message: unknown) {
    this.socket.send(JSON.stringify(message));
  }

  sendRaw(data: string | Buffer, binary = false) {
    this.socket.send(data, { binary });
  }

  /** Takes the first unread message that matches, waiting for it (bounded); earlier ones stay unread. */
  async take(match: (message: ServerMessage) => boolean, what: string, limitMs = waitLimitMs): Promise<ServerMessage> {
    const find = () => this.unread.findIndex(match);
    let index = find();
    if (index === -1) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.#waiters.delete(check);
          reject(new Error(`no ${what} within ${limitMs} ms; unread: ${JSON.stringify(this.unread).slice(0, 2000)}`));
        }, limitMs);
        const check = () => {
          index = find();
          if (index === -1 && this.socket.readyState !== WebSocket.CLOSED) return;
          clearTimeout(timer);
          this.#waiters.delete(check);
          if (index === -1) reject(new Error(`the socket closed before ${what}`));
          else resolve();
        };
        this.#waiters.add(check);
      });
    }
    return this.unread.splice(index, 1)[0];
  }

  async next<T extends ServerMessage['type']>(type: T, match: (message: Extract<ServerMessage, { type: T }>) => boolean = () => true,
    limitMs = waitLimitMs): Promise<Extract<ServerMessage, { type: T }>> {
    const found = await this.take((message) => message.type === type && match(message as Extract<ServerMessage, { type: T }>),
      `a ${type} message`, limitMs);
    return found as Extract<ServerMessage, { type: T }>;
  }

  /** The next snapshot or update of a channel. */
  async nextOn(channel: string, limitMs = waitLimitMs): Promise<ChannelMessage> {
    const found = await this.take((message) => (message.type === 'snapshot' || message.type === 'update')
      && message.channel === channel, `a message on ${channel}`, limitMs);
    return found as ChannelMessage;
  }

  async closedWithin(limitMs = waitLimitMs): Promise<Closed> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the socket did not close within ${limitMs} ms`)), limitMs);
    });
    try {
      return await Promise.race([this.closed, limit]);
    } finally {
      clearTimeout(timer);
    }
  }

  close() {
    this.socket.terminate();
  }
}

/** A connect function for a suite: each client it opens to `url()` is closed after each test. */
export function socketClients(url: () => string): () => Promise<SocketClient> {
  const clients: SocketClient[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  return async () => {
    const client = await SocketClient.connect(url());
    clients.push(client);
    return client;
  };
}

export interface RefusedUpgrade { status: number; body: any }

/** Asks for a socket the server is expected to refuse, and reads the HTTP answer it gets instead. */
export async function refusedUpgrade(url: string, options: ClientOptions = {}): Promise<RefusedUpgrade> {
  const socket = new WebSocket(url, options);
  return new Promise<RefusedUpgrade>((resolve, reject) => {
    socket.once('open', () => {
      socket.terminate();
      reject(new Error('the server accepted the socket'));
    });
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        socket.terminate();
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
    });
  });
}

/** A market engine on the test server's bus and clock, on a few symbols, moved one tick at a time. */
export async function startTestEngine(server: TestServer, symbols = ['BTCUSDT', 'ETHUSDT']) {
  const specs = symbols.map((symbol) => symbolByCode.get(symbol)!);
  const engine = new MarketEngine({
    db: server.db, clock: server.clock, bus: server.marketBus, source: simulatorSource(seededSimulator('realtime-test'), specs),
    seed: 'realtime-test', tickIntervalMs: 1000, tickRetentionMs: 3_600_000, specs,
  });
  await engine.init();
  return {
    engine,
    async tick(count = 1) {
      for (let i = 0; i < count; i += 1) {
        server.clock.advance(1000);
        await engine.tickOnce(server.clock.now().getTime());
      }
    },
  };
}

/** A fresh PostgreSQL database next to TEST_DATABASE_URL's, for tests that run two instances on one database. */
export async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bourse_t_${process.pid}_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Polls `condition` every few milliseconds until it holds, failing after a bounded wait. */
export async function eventually(condition: () => boolean | Promise<boolean>, what: string, limitMs = waitLimitMs) {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
