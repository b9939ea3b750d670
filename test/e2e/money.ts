// Money for end-to-end journeys, moved the way a user and an operator move it: a fresh account
// registered through the API (its code read from the dev outbox), and funds that arrive as a
// deposit with a proof image which the seeded demo operator approves (password + TOTP). Nothing
// is written to the database directly. Uses the conformance suite's spec-only client.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { totp, base32Decode } from '../conformance/adminClient.ts';
import { SpecClient, tokenOf, type Answer } from '../conformance/specClient.ts';
import type { Browser, Page } from 'playwright-core';
import { codeFromOutbox } from './browser.ts';

/** The operator the server seeds with a demo (server/domain/kernel/operators.ts). */
export const demoOperator = { email: 'operator@bourse.local', password: 'Operator2026pass', totpSecret: 'JBSWY3DPEHPK3PXPBOURSEDEMO234567' };

/** A 1×1 PNG: every decoder reads it, so the server accepts it as a proof. */
export const tinyPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200 && answer.envelope?.code !== 0) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}

/** Registers a new e-mail account and returns its e-mail, password and token. */
export async function newAccount(baseUrl: string, dataDir: string, prefix = 'e2e'): Promise<{ email: string; password: string; token: string }> {
  const client = new SpecClient(baseUrl);
  const email = `${prefix}-${crypto.randomBytes(5).toString('hex')}@example.test`;
  const password = 'Wallet2026e2e';
  result(await client.emailCaptcha(email, 'register'), 'register code');
  const code = await codeFromOutbox(dataDir, email);
  const registered = await client.register({ accountType: 'email', account: email, password, code });
  const token = tokenOf(registered);
  if (!token) throw new Error(`register: ${registered.text}`);
  return { email, password, token };
}

const stepMs = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A code of a demo operator's authenticator that no other journey has sent to this server.
 * The server takes a code once and only a step later than the last it took (a replay guard),
 * while the journeys run in parallel workers against one server: the steps they use are
 * reserved in order through a file beside the server's port (one per operator), under a directory
 * lock, waiting for the clock when the next free step is not yet accepted (the server takes one
 * step either side).
 */
export async function authenticatorCode(baseUrl: string, operator: { email: string; totpSecret: string }): Promise<string> {
  const client = new SpecClient(baseUrl);
  const port = new URL(baseUrl).port;
  const who = operator.email === demoOperator.email ? '' : `-${operator.email.split('@')[0]}`;
  const stateFile = path.join(os.tmpdir(), `bourse-e2e-totp-${port}${who}.json`);
  const lockDir = `${stateFile}.lock`;
  for (;;) {
    try { fs.mkdirSync(lockDir); break; } catch { await sleep(50); }
  }
  try {
    const last = fs.existsSync(stateFile) ? Number(JSON.parse(fs.readFileSync(stateFile, 'utf8')).step) : -Infinity;
    for (;;) {
      const now = await client.serverTime();
      const current = Math.floor(now / stepMs);
      const step = Math.max(current, last + 1);
      if (step <= current + 1) {
        fs.writeFileSync(stateFile, JSON.stringify({ step }));
        return totp(base32Decode(operator.totpSecret), step * stepMs);
      }
      await sleep((step - 1) * stepMs - now + 200);
    }
  } finally {
    fs.rmdirSync(lockDir);
  }
}

/** A fresh code of the demo operator's authenticator (authenticatorCode). */
export const operatorCode = (baseUrl: string) => authenticatorCode(baseUrl, demoOperator);

/** The second demo operator (finance): what the first may not approve alone, this one approves. */
export const demoReviewer = { email: 'reviewer@bourse.local', password: 'Reviewer2026pass', totpSecret: 'JBSWY3DPEHPK3PXPBOURSEREVIEWER23' };

let reviewerToken: Promise<string> | undefined;
/** The demo reviewer's session, shared by the journeys as the operator's is (operatorSession). */
export function reviewerSession(baseUrl: string): Promise<string> {
  reviewerToken ??= sharedSession(baseUrl, demoReviewer);
  return reviewerToken;
}

async function sharedSession(baseUrl: string, operator: typeof demoOperator): Promise<string> {
  const client = new SpecClient(baseUrl);
  const who = operator.email === demoOperator.email ? 'operator' : operator.email.split('@')[0];
  const tokenFile = path.join(os.tmpdir(), `bourse-e2e-${who}-${new URL(baseUrl).port}.json`);
  if (fs.existsSync(tokenFile)) {
    const kept = String(JSON.parse(fs.readFileSync(tokenFile, 'utf8')).token);
    if ((await client.get('/admin/me', {}, kept)).envelope?.code === 200) return kept;
  }
  const code = await authenticatorCode(baseUrl, operator);
  const answer = await client.post<{ token: string }>('/admin/login', { account: operator.email, password: operator.password, totpCode: code });
  const token = result(answer, `${who} login`).token;
  fs.writeFileSync(tokenFile, JSON.stringify({ token }));
  return token;
}

let operatorToken: Promise<string> | undefined;
/**
 * The demo operator's session, shared by every journey of the run (issue 20): a login needs a
 * code of a fresh authenticator step, up to 30 s of waiting for each file that logged in anew. The
 * token is kept beside the server's port and checked with /admin/me before it is reused.
 */
export function operatorSession(baseUrl: string): Promise<string> {
  operatorToken ??= sharedSession(baseUrl, demoOperator);
  return operatorToken;
}

/** Uploads a proof image as the user (multipart, unencrypted) and returns its id. */
export async function uploadProof(baseUrl: string, token: string, bytes: Buffer = tinyPng): Promise<string> {
  return result(await new SpecClient(baseUrl).upload(token, bytes, 'deposit_proof', 'image/png', 'proof.png'), 'upload').id;
}

/**
 * Deposits `amount` (a decimal string) of `currency` on `network` for the user and has the demo
 * operator approve it: the balance is credited through the ledger as in production.
 */
export async function fundAccount(baseUrl: string, token: string, amount: string, currency = 'USDT', network = 'TRC20'): Promise<string> {
  const client = new SpecClient(baseUrl);
  const proofFileId = await uploadProof(baseUrl, token, Buffer.concat([tinyPng]));
  // Each proof backs one deposit: a random transaction hash keeps repeated fundings apart.
  const txHash = crypto.randomBytes(32).toString('hex');
  const applied = result(await client.post<{ id: string }>('/finance/appRecharge/apply', { currency, network, amount, proofFileId, txHash }, token), 'deposit');
  const operator = await operatorSession(baseUrl);
  const approved = result(await client.post<{ status: number }>(`/admin/recharges/${applied.id}/approve`, {}, operator), 'approve');
  // The demo operator's own 24 hours of approvals pass the threshold over a run's many deposits:
  // the second demo operator then approves too (issue 38), as in a real back office.
  if (approved.status === 0) result(await client.post(`/admin/recharges/${applied.id}/approve`, {}, await reviewerSession(baseUrl)), 'second approval');
  return applied.id;
}

/**
 * The back office at a desktop size in English, the demo operator logged in with the run's shared
 * session (operatorSession) in the tab's sessionStorage, where the back office keeps it. The login
 * form itself is exercised by admin.test.ts.
 */
/**
 * An operator's browser: a desktop, in English, with reduced motion, so the back office's modals
 * and drawers appear at once (AdminRoot) and no click lands on a button still zooming in (on a
 * loaded machine that left a decision unsent behind an open modal).
 */
export const backOfficeContext = { viewport: { width: 1280, height: 800 }, locale: 'en-US', reducedMotion: 'reduce' } as const;

export async function backOfficePage(browser: Browser, baseUrl: string): Promise<Page> {
  const token = await operatorSession(baseUrl);
  const context = await browser.newContext(backOfficeContext);
  context.setDefaultTimeout(20_000);
  await context.addInitScript((value) => {
    localStorage.setItem('bourse.admin.lang', 'en-us');
    sessionStorage.setItem('bourse.admin.token', value);
  }, token);
  const page = await context.newPage();
  // What went wrong in the back office's own code shows in the test's output (a decision that
  // never reaches the server leaves nothing else behind).
  page.on('pageerror', (error) => console.error(`[back office] uncaught: ${error.stack ?? error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`[back office] console: ${message.text()}`);
  });
  await page.goto(`${baseUrl}/admin.html`);
  await page.getByTestId('admin-operator').filter({ hasText: demoOperator.email }).waitFor();
  return page;
}
