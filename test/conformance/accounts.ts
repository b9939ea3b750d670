// The accounts the conformance files make as a client written from the spec makes them: a new
// e-mail account through the code the server sent, and USDT deposited with a proof and approved by
// an operator.
import crypto from 'node:crypto';
import { expect } from 'vitest';
import { readCode } from './server.ts';
import { isSuccess, tokenOf, type SpecClient } from './specClient.ts';
import { plainPng } from './pngImage.ts';
import { describeAnswer, expectSuccess } from './expectAnswer.ts';

/** Registers `conf-<tag>-<random>@example.test` with `password` (and an invitation code) and answers its token. */
export async function registerByEmail(client: SpecClient, dataDir: string, tag: string, password: string, inviteCode?: string): Promise<string> {
  const email = `conf-${tag}-${crypto.randomBytes(5).toString('hex')}@example.test`;
  expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
  const registered = await client.register({
    accountType: 'email', account: email, password, code: await readCode(dataDir, email, 'email'), ...(inviteCode ? { inviteCode } : {}),
  });
  const token = tokenOf(registered);
  expect(token, describeAnswer(registered)).toEqual(expect.any(String));
  return token!;
}

/** Deposits `amount` USDT on TRC20 with a proof image and has `operatorToken` approve it. */
export async function depositUsdt(client: SpecClient, token: string, operatorToken: string, amount: string): Promise<void> {
  const proof = expectSuccess(await client.upload(token, plainPng(8, 8, [10, 200, 10]), 'deposit_proof')).id;
  const applied = expectSuccess(await client.post<{ id: string }>('/finance/appRecharge/apply',
    { currency: 'USDT', network: 'TRC20', amount, proofFileId: proof }, token));
  expectSuccess(await client.post(`/admin/recharges/${applied.id}/approve`, {}, operatorToken));
}
