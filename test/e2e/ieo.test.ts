// IEO on a 390 px phone in Chromium against the real server (issue 23). Both accounts are verified
// (basic, each with its own document: issue 38, applying needs it) and funded with 100 USDT. The
// operator creates an offering over the admin API (2 lots on offer, a window of 45 seconds); a
// second account applies for 2 lots over the API; the phone's account opens /#/ieo, finds the
// offering with its price, lot cost and commitment, types 2 lots, reads the amount held
// (2 × 12.5 = 25 USDT) and applies in the confirmation; the application shows the 25 USDT held.
// When the window has closed the operator closes and reveals over the admin API; back on the
// phone, "Verify the draw" recomputes the commitment, the list's hash and the winners in the
// browser, shows "Verified" and the account's lots as the published draw has them; the account's
// USDT is 100 less 12.5 per lot won, nothing held any more.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { SpecClient } from '../conformance/specClient.ts';
import { browserForFile, localizedPage, settled } from './browser.ts';
import { fundAccount, newAccount, operatorSession } from './money.ts';
import { applyBasicOverApi, result } from './kycHelpers.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);

interface Draw { seed?: string; winners?: Array<{ id: string; lots: number; won: number }> }

describe('IEO on the phone', () => {
  let user: { token: string };
  let other: { token: string };
  let operator: string;

  beforeAll(async () => {
    user = await newAccount(baseUrl, dataDir, 'ieo');
    other = await newAccount(baseUrl, dataDir, 'ieo2');
    operator = await operatorSession(baseUrl);
    for (const account of [user, other]) {
      const document = `E${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
      const kyc = await applyBasicOverApi(baseUrl, account.token, { idNumber: document });
      result(await client.post(`/admin/kyc/${kyc}/approve`, {}, operator), 'kyc approve');
      await fundAccount(baseUrl, account.token, '100');
    }
  }, 120_000);

  it('applies on the phone; after the operator closes and reveals, "Verify the draw" agrees in the browser', async () => {
    const now = await client.serverTime();
    const token = `E${Date.now().toString(36).toUpperCase().slice(-8)}`;
    const project = result(await client.post<{ id: string; closesAt: number }>('/admin/ieo', {
      token, tokenName: 'E2E token', tokenScale: 6, name: `${token} offering`, payAsset: 'USDT', price: '0.125', lotSize: '100',
      supplyLots: 2, perUserMaxLots: 3, opensAt: now, closesAt: now + 45_000, payDeadline: now + 3_600_000, listsAt: now + 7_200_000,
    }, operator), 'create');
    result(await client.post('/prod/appOrderIoe/apply', { id: project.id, lots: 2 }, other.token), 'apply (other)');

    const phone = await localizedPage(browser(), { token: user.token });
    await phone.goto(`${baseUrl}/#/ieo`);
    await settled(phone);
    const card = phone.getByTestId(`ieo-${project.id}`);
    await card.waitFor();
    // Texts are checked by their numbers and states: the catalogs are compiled after this messages are translated.
    expect(await card.textContent()).toContain('12.5');
    expect(await card.locator('[data-status]').first().getAttribute('data-status')).toBe('issuing');
    await card.getByTestId('ieo-lots').fill('2');
    await expect.poll(() => card.getByTestId('ieo-apply-amount').getAttribute('data-amount')).toBe('25.000000 USDT');
    await card.getByTestId('ieo-apply').click();
    await phone.locator('.adm-dialog .adm-dialog-button-bold').click();
    await card.getByTestId('ieo-my-application').waitFor();
    expect(await card.getByTestId('ieo-my-application').getAttribute('data-status')).toBe('applied');
    expect(await card.getByTestId('ieo-held').textContent()).toContain('25');

    // The operator closes as soon as the window has closed, then reveals.
    await expect.poll(async () => (await client.post(`/admin/ieo/${project.id}/close`, {}, operator)).envelope?.code,
      { timeout: 90_000, interval: 1_000 }).toBe(200);
    result(await client.post(`/admin/ieo/${project.id}/reveal`, {}, operator), 'reveal');
    const draw = result(await client.get<Draw>('/prod/appProdIoe/draw', { id: project.id }), 'draw');
    const mine = result(await client.get<{ records: Array<{ id: string }> }>('/prod/appOrderIoe/listMy', {}, user.token), 'records').records[0];
    const won = draw.winners?.find((winner) => winner.id === mine.id)?.won ?? 0;

    await phone.reload();
    await settled(phone);
    await card.getByTestId('ieo-verify').click();
    await card.getByTestId('ieo-verified').waitFor();
    const yours = card.getByTestId('ieo-draw-mine').locator('[data-application]');
    expect(await yours.getAttribute('data-application')).toBe(mine.id);
    expect(await yours.getAttribute('data-won')).toBe(String(won));
    expect(await card.getByTestId('ieo-draw').textContent()).toContain(draw.seed);
    expect(await card.getByTestId('ieo-mismatch').count()).toBe(0);
    // The hold paid the won lots and released the rest.
    const usdt = result(await client.get<Array<{ currency: string; available: string; frozen: string }>>('/finance/appWallet/queryUserBalance', {}, user.token), 'balance')
      .find((row) => row.currency === 'USDT');
    expect(usdt).toMatchObject({ available: (100 - 12.5 * won).toFixed(6), frozen: '0.000000' });
  }, 240_000);
});
