// Conformance: a spec-only client binds a chain address and a bank card and lists them, sets its
// withdrawal password with a code read from the server's dev outbox, changes it, applies for a
// withdrawal (refused with stable codes: a fresh account holds nothing) and reads its records.
// Field names the spec does not show were read (not imported) from src/api/contract/withdrawals.ts.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, tokenOf, type Answer } from './specClient.ts';
import { describeAnswer, expectSuccess } from './expectAnswer.ts';

let server: RunningServer;
let client: SpecClient;
let token: string;
const email = `conf-withdraw-${crypto.randomBytes(5).toString('hex')}@example.test`;
const tronAddress = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const withdrawPassword = 'Payout2026conf';

function expectError(answer: Answer, status: number, error: string) {
  expect({ status: answer.status, error: errorOf(answer) }, describeAnswer(answer)).toEqual({ status, error });
}

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
  const code = await readCode(server.dataDir, email, 'email');
  const registered = await client.register({ accountType: 'email', account: email, password: 'Withdraw2026conf', code });
  token = tokenOf(registered)!;
  expect(token, describeAnswer(registered)).toEqual(expect.any(String));
});

afterAll(async () => {
  await server?.stop();
});

describe('withdrawal calls of spec §7', () => {
  let destinationId: string;

  it('POST /user/appUserWithdrawalInfoSet/addAccount and editAccount, GET listMy', async () => {
    const chain = expectSuccess(await client.addWithdrawalAccount({ type: 'chain', currency: 'USDT', network: 'TRC20', address: tronAddress }, token));
    expect(chain).toMatchObject({ type: 'chain', address: tronAddress });
    destinationId = chain.id;
    expectError(await client.addWithdrawalAccount({ type: 'chain', currency: 'USDT', network: 'ERC20', address: tronAddress }, token),
      400, 'address_wrong_network');
    const bank = expectSuccess(await client.addWithdrawalAccount({ type: 'bank', bankName: 'Test Bank', realName: 'Conf Client', cardNumber: '6222021234567890' }, token));
    expect(bank.cardNumber).toMatch(/7890$/);
    expectSuccess(await client.editWithdrawalAccount({ id: bank.id, type: 'bank', bankName: 'Other Bank', realName: 'Conf Client', cardNumber: '6222021234560000' }, token));
    const list = expectSuccess(await client.listWithdrawalAccounts(token));
    expect(list.map((row) => row.id).sort()).toEqual([bank.id, chain.id].sort());
    expect(list.find((row) => row.id === bank.id)?.cardNumber).toMatch(/0000$/);
  });

  it('a withdrawal without a withdrawal password says to set one', async () => {
    expectError(await client.applyWithdrawal({ currency: 'USDT', amount: '20', withdrawalInfoId: destinationId, withdrawPassword }, token),
      400, 'withdraw_password_required');
  });

  it('POST /user/appUser/setWithdrawPassword with a code from getEmailCaptcha?type=withdrawPassword, then changeWithdrawPassword', async () => {
    expectSuccess(await client.withdrawPasswordEmailCode(email, token));
    const code = await readCode(server.dataDir, email, 'email');
    expectSuccess(await client.setWithdrawPassword(withdrawPassword, code, token));
    const info = expectSuccess(await client.myUserInfo(token)) as { hasWithdrawPassword?: boolean };
    expect(info.hasWithdrawPassword).toBe(true);
    expectError(await client.changeWithdrawPassword('Wrong2026conf', 'Other2026conf', token), 400, 'withdraw_password_invalid');
    expectSuccess(await client.changeWithdrawPassword(withdrawPassword, 'Other2026conf', token));
    expectSuccess(await client.changeWithdrawPassword('Other2026conf', withdrawPassword, token));
  });

  it('POST /finance/appWithdrawal/apply refuses with stable codes, and GET listMy pages the records', async () => {
    const apply = (fields: Record<string, string>) => client.applyWithdrawal(
      { currency: 'USDT', amount: '20', withdrawalInfoId: destinationId, withdrawPassword, ...fields }, token);
    expectError(await apply({ amount: '1e3' }), 400, 'amount_exponent');
    expectError(await apply({ amount: '5' }), 400, 'amount_below_minimum');
    expectError(await apply({ currency: 'DOGE' }), 404, 'currency_unknown');
    // A fresh account holds nothing: the amount and its fee are not covered.
    expectError(await apply({}), 400, 'balance_insufficient');
    const page = expectSuccess(await client.listMyWithdrawals(token, { pageNo: 1, pageSize: 10 }));
    expect(page).toEqual({ records: [], total: 0, size: 10, current: 1, pages: 0 });
  });
});
