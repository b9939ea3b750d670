// What the trading conformance suites (positions, second contracts, swap) share: a server started
// as installed, a spec-only client registered by e-mail code, USDT credited through a deposit the
// demo operator approves, and the assertions on answers. Spec-only like the rest of the suite.
import crypto from 'node:crypto';
import { expect } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { AdminClient, base32Decode, totp, demoOperator } from './adminClient.ts';
import { isSuccess, SpecClient, tokenOf } from './specClient.ts';
import { describeAnswer, expectError, expectSuccess } from './expectAnswer.ts';

export { describeAnswer, expectError, expectSuccess };

const tinyPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');


export interface TradingSession { server: RunningServer; client: SpecClient; token: string }

/** Starts the server and registers a user whose e-mail starts with `prefix`. */
export async function openTradingSession(prefix: string, password: string): Promise<TradingSession> {
  const server = await startServer();
  const client = new SpecClient(server.baseUrl);
  const email = `${prefix}-${crypto.randomBytes(5).toString('hex')}@example.test`;
  expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
  const code = await readCode(server.dataDir, email, 'email');
  const registered = await client.register({ accountType: 'email', account: email, password, code });
  const token = tokenOf(registered)!;
  expect(token, describeAnswer(registered)).toEqual(expect.any(String));
  await firstTick(client, 'BTCUSDT');
  return { server, client, token };
}

/**
 * Waits (30 s at most) until the live feed has recorded a tick of `symbol`: right after start a
 * trade is refused with price_unavailable, and the suites' first refusals expect other reasons.
 */
async function firstTick(client: SpecClient, symbol: string) {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const to = await client.serverTime();
    const answer = await client.get<unknown[]>('/trade/appSymbol/ticks', { symbol, from: String(to - 60_000), to: String(to) });
    if (isSuccess(answer) && (answer.envelope?.result.length ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no recorded tick of ${symbol} within 30 s`);
}

const upload = ({ client, token }: TradingSession, bytes: Buffer) => client.upload(token, bytes, 'deposit_proof', 'image/png', 'proof.png');

/** Deposits `amount` USDT and has the demo operator approve it. */
export async function fundUsdt(session: TradingSession, amount: string) {
  const { client, token } = session;
  const proof = expectSuccess(await upload(session, tinyPng));
  const applied = expectSuccess(await client.post<{ id: string }>('/finance/appRecharge/apply', {
    currency: 'USDT', network: 'TRC20', amount, proofFileId: proof.id,
  }, token));
  const admin = new AdminClient(client);
  const login = await admin.login(demoOperator.email, demoOperator.password, totp(base32Decode(demoOperator.totpSecret), await client.serverTime()));
  const operatorToken = tokenOf(login);
  expect(operatorToken, describeAnswer(login)).toEqual(expect.any(String));
  expectSuccess(await client.post(`/admin/recharges/${applied.id}/approve`, {}, operatorToken));
}

/** A recorded tick as `/trade/appSymbol/ticks` answers it. */
export interface Tick { id: string; symbol: string; price: string; time: number; source: string }

/** The live feed's ticks of the last half minute, waiting (up to 30 s) until there is one. */
export async function recentTicks(client: SpecClient, symbol: string): Promise<Tick[]> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const now = await client.serverTime();
    const ticks = expectSuccess(await client.get<Tick[]>('/trade/appSymbol/ticks', { symbol, from: now - 30_000, to: now + 1000 }));
    if (ticks.length > 0) return ticks;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no tick of ${symbol} within 30 s`);
}
