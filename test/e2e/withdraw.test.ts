// Settlement info and withdrawal in Chromium against the real server (issue 9): a fresh account
// funded with 100 USDT (a deposit approved by the demo operator) binds a TRC20 address after an
// ERC20 one is refused under the address field, sets its withdrawal password with the code from
// the outbox, and withdraws 10 USDT: the fee and the total match the currency list's, a wrong
// password is refused in the confirmation and moves nothing, the right one lands on the result
// page, and the balance shows amount + fee moved from available to frozen. Then both pages at 390
// and 320 px in English, Spanish and Korean: nothing wider than the screen. Screenshots go to
// /tmp/shots-withdraw to be looked at.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SpecClient, type Answer } from '../conformance/specClient.ts';
import type { CurrencyBalance, CurrencyInfo } from '../../src/api/contract/wallet.ts';
import { browserForFile, localizedPage, overflowing, settled, layoutRun } from './browser.ts';
import { fundAccount, newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const shotsDir = process.env.WITHDRAW_SHOTS_DIR ?? '/tmp/shots-withdraw';

const tronAddress = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const ethAddress = '0x000000000000000000000000000000000000dEaD';
const withdrawPassword = 'Payout2026safe';

function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200 && answer.envelope?.code !== 0) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}

/** A code the outbox receives for `to` after `since` (files already there are older codes). */
async function newCodeFromOutbox(to: string, since: Set<string>): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((file) => file.endsWith('.json') && !since.has(file)).sort().reverse() : [];
    for (const file of files) {
      try {
        const message = JSON.parse(fs.readFileSync(path.join(outbox, file), 'utf8')) as { to: string; code: string };
        if (message.to === to) return message.code;
      } catch {
        // Being written: read it on the next round.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no new code in the outbox for ${to}`);
}
const outboxFiles = () => new Set(fs.existsSync(path.join(dataDir, 'outbox')) ? fs.readdirSync(path.join(dataDir, 'outbox')) : []);

const errorUnder = (page: Page, placeholder: string) =>
  page.locator('.adm-form-item', { has: page.getByPlaceholder(placeholder, { exact: true }) }).locator('.adm-form-item-feedback-error');

describe('withdraw', () => {
  let account: { email: string; token: string };
  const client = new SpecClient(baseUrl);
  const balance = async () => {
    const balances = result(await client.get<CurrencyBalance[]>('/finance/appWallet/queryUserBalance', {}, account.token), 'balance');
    return balances.find((item) => item.currency === 'USDT')!;
  };

  beforeAll(async () => {
    fs.mkdirSync(shotsDir, { recursive: true });
    account = await newAccount(baseUrl, dataDir, 'withdraw');
    await fundAccount(baseUrl, account.token, '100');
  });

  it('binds a TRC20 address after refusing an ERC20 one under the field, and sets the withdrawal password with a code', async () => {
    const page = await localizedPage(browser(), { token: account.token });
    await page.goto(`${baseUrl}/#/tixian?currency=USDT`);
    await settled(page);
    // Nothing bound, no password: the page says so and links to both.
    await page.getByRole('link', { name: 'Bind a USDT address' }).waitFor();
    await expect(page.getByRole('button', { name: 'Withdraw', exact: true }).isDisabled()).resolves.toBe(true);
    await page.getByRole('link', { name: 'Bind a USDT address' }).click();
    await page.waitForURL(/#\/jiesuanInfo\?add=chain/);
    const address = page.getByPlaceholder('Enter or paste the address');
    await address.waitFor();
    await page.locator('.adm-selector-item', { hasText: 'TRC20' }).click();
    await address.fill(ethAddress);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => errorUnder(page, 'Enter or paste the address').textContent())
      .toBe('This address belongs to another network. Please choose the network it was made for.');
    await address.fill(tronAddress);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.destination-card', { hasText: tronAddress }).waitFor();
    await expect(page.locator('.destination-card').first().textContent()).resolves.toContain('USDT · TRC20');
    await expect.poll(() => page.url()).not.toContain('add=');

    await page.getByRole('button', { name: 'Set withdrawal password' }).click();
    await page.getByRole('button', { name: 'Send code' }).waitFor();
    const before = outboxFiles();
    await page.getByRole('button', { name: 'Send code' }).click();
    const code = await newCodeFromOutbox(account.email, before);
    await page.getByPlaceholder('6-digit code').fill(code);
    await page.locator('.adm-popup').getByPlaceholder('Withdrawal password', { exact: true }).fill(withdrawPassword);
    await page.getByPlaceholder('Repeat the password').fill(withdrawPassword);
    await page.screenshot({ path: path.join(shotsDir, 'set-password-en-us-390.png') });
    await page.locator('.adm-popup').getByRole('button', { name: 'Set withdrawal password' }).click();
    await page.locator('.password-state.set').waitFor();
    const destinations = result(await client.get<Array<{ address: string | null }>>('/user/appUserWithdrawalInfoSet/listMy', {}, account.token), 'destinations');
    expect(destinations.map((item) => item.address)).toEqual([tronAddress]);
  });

  it('withdraws 10 USDT: fee and total as the currency list has them, a wrong password moves nothing, the right one lands on the result', async () => {
    const currencies = result(await client.get<CurrencyInfo[]>('/set/appCurrencySet/getCurrencyList'), 'currencies');
    const trc20 = currencies.find((item) => item.currency === 'USDT')!.networks.find((item) => item.network === 'TRC20')!;
    const fee = Number(trc20.withdrawalFee);
    expect(trc20.withdrawalFee).toBe('1.000000');
    const start = await balance();
    expect(start).toMatchObject({ available: '100.000000', frozen: '0.000000' });

    const page = await localizedPage(browser(), { token: account.token });
    await page.goto(`${baseUrl}/#/tixian?currency=USDT`);
    await settled(page);
    // The figures at USDT's display precision with the digits moved (lib/assetPrecision.ts): 1.000000 reads 1.00.
    await expect.poll(() => page.getByTestId('withdraw-fee').textContent()).toBe(`${fee.toFixed(2)} USDT`);
    await expect(page.getByRole('radio', { name: /USDT · TRC20/ }).getAttribute('aria-checked')).resolves.toBe('true');
    const amount = page.getByRole('textbox', { name: 'Amount' });
    await amount.fill('10');
    await expect.poll(() => page.getByTestId('withdraw-total').textContent()).toBe(`${(10 + fee).toFixed(2)} USDT`);
    await expect(page.getByTestId('withdraw-arrival').textContent()).resolves.toBe('10.00 USDT');
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    const password = page.getByPlaceholder('Withdrawal password', { exact: true });
    await password.waitFor();
    await expect(page.getByTestId('confirm-total').textContent()).resolves.toBe('11.00 USDT');
    await expect(page.locator('.withdraw-confirm').textContent()).resolves.toContain(tronAddress);

    await password.fill('Wrong2026pass');
    await page.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await expect.poll(() => errorUnder(page, 'Withdrawal password').textContent()).toBe('The withdrawal password is wrong.');
    expect(page.url()).toContain('/tixian');
    await expect(balance()).resolves.toMatchObject({ available: '100.000000', frozen: '0.000000' });
    await page.screenshot({ path: path.join(shotsDir, 'confirm-wrong-password-en-us-390.png') });

    await password.fill(withdrawPassword);
    await page.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await page.waitForURL(/#\/chongzhitixianResult\?kind=withdrawal&id=\d+/);
    const after = await balance();
    expect(after).toMatchObject({ available: '89.000000', frozen: '11.000000' });
  });

  it('fits 390 and 320 px in English, Spanish and Korean', async () => {
    // A bank card too: the seeded USDT has no BANK network, so the page shows it unusable.
    result(await client.post('/user/appUserWithdrawalInfoSet/addAccount',
      { type: 'bank', bankName: 'Banco de Demostración Internacional', realName: 'María José Fernández de la Peña', cardNumber: '4000123412341234' }, account.token), 'bank card');
    // USDT pays out to bank cards (the seeded BANK network): its own minimum and fee apply.
    const currencies = result(await client.get<CurrencyInfo[]>('/set/appCurrencySet/getCurrencyList'), 'currencies');
    const bank = currencies.find((item) => item.currency === 'USDT')!.networks.find((item) => item.network === 'BANK');
    const page = await localizedPage(browser(), { token: account.token });
    await page.goto(`${baseUrl}/#/tixian?currency=USDT`);
    await settled(page);
    await page.getByRole('radio', { name: /Banco de Demostración/ }).click();
    if (bank?.withdrawalEnabled) {
      await expect.poll(() => page.getByTestId('withdraw-fee').textContent()).toBe(`${Number(bank.withdrawalFee).toFixed(2)} USDT`);
    } else {
      await expect(page.getByRole('radio', { name: /Banco de Demostración/ }).isDisabled()).resolves.toBe(true);
    }
    await page.getByText('BTC', { exact: true }).click();
    await expect(page.getByRole('radio', { name: /Banco de Demostración/ }).isDisabled()).resolves.toBe(true);
    await page.getByText('Bank payouts of BTC are not offered. Bind a BTC address to withdraw.').waitFor();
    await page.screenshot({ path: path.join(shotsDir, 'tixian-btc-en-us-390.png'), fullPage: true });
    await page.context().close();

    for (const lang of ['en-us', 'xi', 'ko']) {
      for (const width of [390, 320]) {
        if (!layoutRun(lang, width)) continue;
        const page = await localizedPage(browser(), { token: account.token, lang, width });
        await page.goto(`${baseUrl}/#/tixian?currency=USDT`);
        await settled(page);
        await page.getByTestId('withdraw-fee').waitFor();
        await page.locator('.page-loading').waitFor({ state: 'detached' });
        await page.locator('.amount-input input').fill('12.5');
        await page.waitForTimeout(200);
        expect((await overflowing(page)).problems, `tixian ${lang} ${width}`).toBe('');
        await page.screenshot({ path: path.join(shotsDir, `tixian-${lang}-${width}.png`), fullPage: true });
        await page.locator('.withdraw-card form button[type="submit"]').click();
        await page.locator('.withdraw-confirm').waitFor();
        await page.waitForTimeout(400);
        expect((await overflowing(page)).problems, `confirm ${lang} ${width}`).toBe('');
        await page.screenshot({ path: path.join(shotsDir, `confirm-${lang}-${width}.png`) });

        await page.goto(`${baseUrl}/#/jiesuanInfo`);
        await settled(page);
        await page.locator('.destination-card').nth(1).waitFor();
        await page.locator('.page-loading').waitFor({ state: 'detached' });
        expect((await overflowing(page)).problems, `jiesuanInfo ${lang} ${width}`).toBe('');
        await page.screenshot({ path: path.join(shotsDir, `jiesuanInfo-${lang}-${width}.png`), fullPage: true });
        for (const sheet of ['add=chain', 'add=bank', 'panel=password']) {
          await page.goto(`${baseUrl}/#/jiesuanInfo?${sheet}`);
          await page.locator('.sheet-body form').waitFor();
          await page.waitForTimeout(400);
          expect((await overflowing(page)).problems, `jiesuanInfo?${sheet} ${lang} ${width}`).toBe('');
          await page.screenshot({ path: path.join(shotsDir, `jiesuanInfo-${sheet.replace('=', '-')}-${lang}-${width}.png`) });
        }
        await page.context().close();
      }
    }
  });
});
