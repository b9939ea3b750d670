// Support chat round trip (issue 21; budget chat.roundtrip.p99 ≤ 200 ms) with 1 000 open
// conversations. Setup (not measured): 1 000 users, each with a session, an open conversation (a
// first message) and its own socket on the user channel, and one operator whose back-office socket
// holds the operators' "chat" channel. Measured: a user sends a message over HTTP (an encrypted
// POST /api/user/appChat/send, as the app does) and the round trip is the time from the request
// leaving the client until the operator's socket receives that message's chat.message event:
// persisted (the conversation's seq taken and the message stored in one transaction), answered,
// and delivered after commit. Messages arrive at a fixed rate (open loop: each is sent at its
// time whether or not earlier ones were answered), 50 a second by default, as 1 000 users typing a
// message every 20 s would send them; 1 500 messages from random users. On embedded PGlite, or
// PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set. Printed, never
// asserted. Alone: `npx tsx test/bench/chat.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { createScratchDatabase, dropScratchDatabase } from '../support/scratchDatabase.ts';
import { loadConfig } from '../../server/lib/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { seed } from '../../server/seed.ts';
import { buildApp } from '../../server/app.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import { users } from '../../server/db/schema.ts';
import { createSession } from '../../server/domain/kernel/sessions.ts';
import { createOperator, operatorLogin } from '../../server/domain/kernel/operators.ts';
import { totpCode } from '../../server/domain/kernel/totp.ts';
import { systemClock } from '../../server/lib/time.ts';
import { memoryRateLimiter } from '../../server/lib/rateLimiter.ts';
import { encryptBody, importServerKey } from '../../src/api/crypto.ts';
import { requestTimeField } from '../../src/api/contract/paths.ts';
import { chatPaths, operatorChatChannel } from '../../src/api/contract/chat.ts';
import { figure } from './figures.ts';

const conversations = Number(process.env.BENCH_CHAT_CONVERSATIONS ?? 1_000);
const messages = Number(process.env.BENCH_CHAT_MESSAGES ?? 1_500);
/** Messages a second, all users together. */
const ratePerSecond = Number(process.env.BENCH_CHAT_RATE ?? 50);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

function openSocket(url: string, auth: object, channel: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify(auth)));
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(String(data)) as { type: string; channels?: string[] };
      if (frame.type === 'subscribed' && frame.channels?.includes(channel)) {
        socket.off('message', onMessage);
        resolve(socket);
      } else if (frame.type === 'error') {
        reject(new Error(String(data)));
      }
    };
    socket.on('message', onMessage);
  });
}

export async function chatBench() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const kind = adminUrl ? 'PostgreSQL' : 'PGlite';
  const name = `bourse_bench_chat_${process.pid}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-chat-'));
  const database = await openDatabase(adminUrl ? { databaseUrl: await createScratchDatabase(adminUrl, name) } : { pgliteDir: path.join(dataDir, 'pgdata') });
  const sockets: WebSocket[] = [];
  try {
    await seed(database.db, { demo: false });
    const config = { ...loadConfig({ DATA_DIR: dataDir }), webRoot: path.join(dataDir, 'no-web') };
    config.limits = { ...config.limits, encryptedBodiesPerIpPerMinute: 10_000_000 };
    const keys = createKeys();
    const { app } = await buildApp({
      config, database, keys, logger: false,
      realtime: { connectionsPerAddressMax: Number.POSITIVE_INFINITY, connectionsMax: Number.POSITIVE_INFINITY, messagesPerWindowMax: 1_000_000 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const base = `http://127.0.0.1:${port}/api`;
    const socketUrl = `ws://127.0.0.1:${port}/api/ws`;
    const serverKey = await importServerKey(keys.publicKeyPem);
    const send = async (token: string, text: string, clientMessageId: string) => {
      const body = await encryptBody({ clientMessageId, text, [requestTimeField]: Date.now() }, serverKey);
      const response = await fetch(`${base}${chatPaths.send}`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-access-token': token }, body,
      });
      const envelope = await response.json() as { code: number };
      if (envelope.code !== 200) throw new Error(`chat send failed: ${JSON.stringify(envelope)}`);
    };

    const rows = await database.db.insert(users).values(Array.from({ length: conversations }, (_, index) => ({
      email: `bench-chat-${index}@example.com`, passwordHash: 'bench', inviteCode: `BC${String(index).padStart(6, '0')}`,
    }))).returning({ id: users.id });
    const tokens: string[] = [];
    for (const row of rows) tokens.push(await createSession(database.db, systemClock, config.limits, row.id));
    // Every conversation open, every user's app connected.
    for (let start = 0; start < tokens.length; start += 50) {
      await Promise.all(tokens.slice(start, start + 50).map(async (token) => {
        await send(token, 'Hello', `open${randomBytes(8).toString('hex')}`);
        sockets.push(await openSocket(socketUrl, { op: 'auth', token }, 'user'));
      }));
    }
    const operator = await createOperator(database.db, 'bench-operator@bourse.test', 'admin');
    const operatorToken = await operatorLogin({ db: database.db, clock: systemClock, limits: config.limits, limiter: memoryRateLimiter() },
      operator.email, operator.password, await totpCode(operator.totpSecret, Date.now()), '127.0.0.1');
    if (!operatorToken) throw new Error('the bench operator could not log in');
    const back = await openSocket(socketUrl, { op: 'auth', token: operatorToken, as: 'operator' }, operatorChatChannel);
    sockets.push(back);

    const waiting = new Map<string, () => void>();
    back.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; channel?: string; data?: { type: string; message?: { clientMessageId?: string } } };
      const id = frame.type === 'update' && frame.channel === operatorChatChannel && frame.data?.type === 'chat.message'
        ? frame.data.message?.clientMessageId : undefined;
      if (id) waiting.get(id)?.();
    });
    const samples: number[] = [];
    const started = performance.now();
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const pending: Promise<void>[] = [];
    for (let index = 0; index < messages; index += 1) {
      const due = started + (index * 1000) / ratePerSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const token = tokens[Math.floor(Math.random() * tokens.length)];
      const clientMessageId = `b${randomBytes(10).toString('hex')}`;
      const arrived = new Promise<void>((resolve) => waiting.set(clientMessageId, resolve));
      const sent = performance.now();
      pending.push(send(token, 'Where is my deposit?', clientMessageId).then(() => arrived).then(() => {
        samples.push(performance.now() - sent);
        waiting.delete(clientMessageId);
      }));
    }
    await Promise.all(pending);
    const elapsedMs = performance.now() - started;
    samples.sort((a, b) => a - b);
    console.log(`chat round trip on ${kind} with ${conversations} open conversations and ${conversations} user sockets: `
      + `${samples.length} messages at ${ratePerSecond}/s, p50 ${percentile(samples, 50).toFixed(1)} ms, `
      + `p99 ${percentile(samples, 99).toFixed(1)} ms, ${(samples.length / (elapsedMs / 1000)).toFixed(0)} messages/s achieved `
      + '(encrypted POST to the event on the operator\'s socket)');
    figure('chat.roundtrip.p99', percentile(samples, 99), 'ms');
    for (const socket of sockets) socket.terminate();
    await app.close();
  } finally {
    for (const socket of sockets) socket.terminate();
    await database.close();
    if (adminUrl) await dropScratchDatabase(adminUrl, name);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await chatBench();
