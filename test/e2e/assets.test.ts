// The asset centre and the account ledger in Chromium against the real server, for a fresh
// account funded the way production funds it (deposits with a proof, approved by the demo
// operator): the totals show the server's exact amounts, the display currency converts the total
// and is remembered, the ledger lists the deposits and filters them by currency, and neither page
// is wider than a 390 or 320 px phone in English, Spanish or Korean (screenshots in /tmp/shots-assets).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it, onTestFailed } from 'vitest';
import type { Page, Response } from 'playwright-core';
import type { CurrencyRate, UserAssets } from '../../src/api/contract/wallet.ts';
import { formatDecimal } from '../../src/lib/number.ts';
import { browserForFile, localizedPage, overflowing, settled, layoutRun } from './browser.ts';
import { fundAccount, newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const shotsDir = process.env.SHOTS_DIR ?? '/tmp/shots-assets';

let token: string;
beforeAll(async () => {
  ({ token } = await newAccount(baseUrl, dataDir, 'assets'));
  await fundAccount(baseUrl, token, '250', 'USDT', 'TRC20');
  await fundAccount(baseUrl, token, '0.01', 'BTC', 'BTC');
});

const answerOf = async <T>(response: Promise<Response>) => ((await (await response).json()) as { result: T }).result;
const answered = (page: Page, pathPart: string) => page.waitForResponse((response) => response.url().includes(pathPart));

describe('asset centre', () => {
  it('shows the totals the server computed, in USDT and in the display currency, and remembers the currency', async () => {
    const page = await localizedPage(browser(), { token });
    onTestFailed(() => page.screenshot({ path: path.join(shotsDir, 'failed-asset-centre.png'), fullPage: true }).then(() => undefined, () => undefined));
    const assetsAnswer = answered(page, '/finance/appWallet/queryUserAssets');
    const btcRate = answered(page, '/set/appCurrencySet/getRateByCurrency?currency=BTC');
    await page.goto(`${baseUrl}/#/zichanCenter`);
    await settled(page);
    const assets = await answerOf<UserAssets>(assetsAnswer);
    const rate = await answerOf<CurrencyRate>(btcRate);

    // The per-currency amounts are the deposits, exactly, each in its currency's scale.
    await expect.poll(() => page.getByTestId('asset-USDT-spot').textContent()).toBe('Available250.00');
    expect(await page.getByTestId('asset-BTC-spot').textContent()).toBe('Available0.01000000');
    expect(await page.getByTestId('asset-currency-USDT').textContent()).toContain('≈ 250.00 USDT');
    // 250 USDT plus 0.01 BTC at the feed's price: what the server valued, cut to two decimals.
    const btc = assets.currencies.find((row) => row.currency === 'BTC')!;
    expect(btc.valueUsdt).not.toBeNull();
    expect(assets.totalUsdt).toBe(btcTotal(btc.valueUsdt!));
    const totalText = formatDecimal(assets.totalUsdt, 2, 'en-US');
    expect(await page.getByTestId('asset-total-usdt').textContent()).toBe(totalText);
    expect(await page.getByTestId('asset-kind-spot').textContent()).toBe(`Spot balance${totalText}`);
    expect(await page.getByTestId('asset-kind-frozen').textContent()).toBe('Frozen assets0.00');

    // The display currency starts at BTC: the total divided by BTC's rate, eight decimals, cut.
    const inBtc = `≈ ${formatDecimal(convertFromUsdt(assets.totalUsdt, rate.rate, 8), 8, 'en-US')}`;
    await expect.poll(() => page.getByTestId('asset-total-display').textContent()).toBe(inBtc);
    expect(await page.getByTestId('asset-rate').textContent()).toMatch(/^1 BTC = [0-9,.]+ USDT · market price · /);

    // USD Coin is valued at the operator's rate of 1 USDT: the same digits as the USDT total.
    await page.getByRole('button', { name: 'Display currency: BTC' }).click();
    await page.locator('.adm-popup-body').getByText('USD Coin').click();
    // USD Coin at its display precision (two decimals, lib/assetPrecision.ts), cut.
    const inUsdc = `≈ ${formatDecimal(assets.totalUsdt, 2, 'en-US')}`;
    await expect.poll(() => page.getByTestId('asset-total-display').textContent()).toBe(inUsdc);
    expect(inUsdc).not.toBe(inBtc);
    expect(await page.getByTestId('asset-rate').textContent()).toMatch(/^1 USDC = 1 USDT · rate set by the platform · /);

    // After a reload (BTC's price has moved meanwhile: the server values it anew) still in USDC.
    const reloaded = answered(page, '/finance/appWallet/queryUserAssets');
    await page.reload();
    await settled(page);
    const again = await answerOf<UserAssets>(reloaded);
    await expect.poll(() => page.getByTestId('asset-total-display').textContent()).toBe(`≈ ${formatDecimal(again.totalUsdt, 2, 'en-US')}`);
    expect(await page.evaluate(() => localStorage.getItem('bourse.displayCurrency'))).toBe('USDC');

    // The eye hides every amount, and the choice survives a reload.
    await page.getByRole('button', { name: 'Hide amounts' }).click();
    expect(await page.getByTestId('asset-total-usdt').textContent()).toBe('****');
    const hiddenAnswer = answered(page, '/finance/appWallet/queryUserAssets');
    await page.reload();
    await settled(page);
    const last = await answerOf<UserAssets>(hiddenAnswer);
    await expect.poll(() => page.getByTestId('asset-total-usdt').textContent()).toBe('****');
    expect(await page.locator('.asset-centre').textContent()).not.toMatch(/[0-9]\.[0-9]{2}/);
    await page.getByRole('button', { name: 'Show amounts' }).click();
    expect(await page.getByTestId('asset-total-usdt').textContent()).toBe(formatDecimal(last.totalUsdt, 2, 'en-US'));

    // The ledger button of a currency opens the ledger on that currency.
    await page.getByRole('button', { name: 'Ledger of BTC' }).click();
    await page.waitForURL(/#\/zhangbianRecord\?currency=BTC$/);
  });
});

/** usdt / rate at `scale` decimals, cut toward zero, in integers (the test's own arithmetic, not the page's). */
function convertFromUsdt(usdt: string, rate: string, scale: number): string {
  const [rateWhole, rateFraction = ''] = rate.split('.');
  const [whole, fraction = ''] = usdt.split('.');
  const atomic = (BigInt(whole + fraction) * 10n ** BigInt(rateFraction.length + scale))
    / (BigInt(rateWhole + rateFraction) * 10n ** BigInt(fraction.length));
  const digits = atomic.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** 250 USDT plus BTC's value, as the server adds them (six decimals). */
function btcTotal(btcValue: string): string {
  const [whole, fraction = ''] = btcValue.split('.');
  const atomic = BigInt(whole + fraction.padEnd(6, '0')) + 250_000_000n;
  const digits = atomic.toString().padStart(7, '0');
  return `${digits.slice(0, -6)}.${digits.slice(-6)}`;
}

describe('account ledger', () => {
  it('lists the deposits and filters them by currency', async () => {
    const page = await localizedPage(browser(), { token });
    onTestFailed(() => page.screenshot({ path: path.join(shotsDir, 'failed-ledger.png'), fullPage: true }).then(() => undefined, () => undefined));
    await page.goto(`${baseUrl}/#/zhangbianRecord`);
    await settled(page);
    // One line per business event (issue 19 #3): each deposit is one event.
    const rows = page.getByTestId('ledger-event');
    await expect.poll(() => rows.count()).toBe(2);
    // Newest first: the BTC deposit, then the USDT one.
    expect(await rows.nth(0).locator('strong').textContent()).toBe('Deposit');
    expect(await page.getByTestId('ledger-amount').allTextContents()).toEqual(['+0.01000000', '+250.00']);
    expect(await rows.nth(1).textContent()).toContain('Balance 250.00');
    expect(await rows.nth(1).textContent()).toContain('USDT TRC20');

    // The filter opens from the keyboard too.
    await page.getByRole('button', { name: 'Currency', exact: true }).press('Enter');
    await page.locator('.adm-dropdown-popup .adm-list-item', { hasText: /^USDT$/ }).click();
    await expect.poll(() => page.getByTestId('ledger-amount').allTextContents()).toEqual(['+250.00']);
    expect(page.url()).toMatch(/currency=USDT/);
    expect(await page.getByRole('button', { name: 'Currency: USDT' }).isVisible()).toBe(true);

    await page.getByTestId('ledger-filter-type').click();
    await page.locator('.adm-dropdown-popup .adm-list-item', { hasText: /^Withdrawal$/ }).click();
    await expect.poll(() => page.getByTestId('ledger-empty').isVisible()).toBe(true);

    // Opened with ?currency=, the list holds that currency only.
    await page.goto(`${baseUrl}/#/zhangbianRecord?currency=BTC`);
    await page.reload();
    await settled(page);
    await expect.poll(() => page.getByTestId('ledger-amount').allTextContents()).toEqual(['+0.01000000']);
    expect(await page.getByTestId('ledger-filter-currency').textContent()).toBe('BTC');
  });
});

describe('on a narrow phone', () => {
  fs.mkdirSync(shotsDir, { recursive: true });
  for (const lang of ['en-us', 'xi', 'ko']) {
    for (const width of [390, 320]) {
      if (!layoutRun(lang, width)) continue;
      it(`fits ${width} px in ${lang}`, async () => {
        const page = await localizedPage(browser(), { width, lang, token });
        const problems: string[] = [];
        for (const [name, route, ready] of [
          ['asset-centre', '/zichanCenter', '[data-testid="asset-currency-BTC"]'],
          ['ledger', '/zhangbianRecord', '[data-testid="ledger-event"]'],
          ['my', '/my', '[data-testid="my-account"]'],
        ] as const) {
          await page.goto(`${baseUrl}/#${route}`);
          await settled(page);
          await page.locator(ready).first().waitFor();
          await page.waitForTimeout(300);
          await page.screenshot({ path: path.join(shotsDir, `${name}-${lang}-${width}.png`), fullPage: true });
          const found = await overflowing(page);
          if (found.problems) problems.push(`${name}: ${found.problems}`);
        }
        // The ledger's filter open, and the display-currency picker.
        await page.goto(`${baseUrl}/#/zhangbianRecord`);
        await settled(page);
        await page.getByTestId('ledger-filter-type').click();
        await page.locator('.adm-dropdown-popup .adm-list-item').first().waitFor();
        await page.waitForTimeout(400);
        await page.screenshot({ path: path.join(shotsDir, `ledger-filter-${lang}-${width}.png`) });
        const filterOpen = await overflowing(page);
        if (filterOpen.problems) problems.push(`filter: ${filterOpen.problems}`);
        expect(problems).toEqual([]);
      });
    }
  }
});
