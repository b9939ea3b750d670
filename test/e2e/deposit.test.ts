// The deposit page in Chromium against the real server (issue 9): a fresh account picks USDT on
// TRC20, reads the platform's address (the server's own) and its QR code, is refused under the
// field below the minimum with nothing sent, attaches a 2000×1500 photo that the page makes
// 1600×1200 before uploading it with its progress shown, confirms, lands on the result page, and
// the request is there under review. Then the page at 390 and 320 px in English, Spanish and
// Korean: nothing wider than the screen. Screenshots go to /tmp/shots-deposit to be looked at.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SpecClient, tokenHeader, type Answer } from '../conformance/specClient.ts';
import type { DepositAddress, PageOf, RechargeRecord } from '../../src/api/contract/wallet.ts';
import { box, browserForFile, localizedPage, overflowing, settled, layoutRun } from './browser.ts';
import { newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const shotsDir = process.env.DEPOSIT_SHOTS_DIR ?? '/tmp/shots-deposit';

function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200 && answer.envelope?.code !== 0) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}

/** msgid → msgstr of a locale's wallet catalog, so each language is checked against its own texts. */
function walletText(locale: string, msgid: string, values: Record<string, string> = {}): string {
  const file = fs.readFileSync(path.resolve(import.meta.dirname, `../../src/locales/${locale}/wallet.po`), 'utf8');
  const unquote = (text: string) => JSON.parse(`"${text}"`) as string;
  for (const [, id, text] of file.matchAll(/^msgid "(.*)"\nmsgstr "(.*)"$/gm)) {
    if (unquote(id) === msgid) return (unquote(text) || msgid).replace(/\{(\w+)\}/g, (_, name: string) => values[name]);
  }
  throw new Error(`${locale}: no entry for "${msgid}"`);
}

async function openDeposit(page: Page, query = '?currency=USDT&network=TRC20') {
  await page.goto(`${baseUrl}/#/chongzhi${query}`);
  await settled(page);
  await page.locator('canvas.address-qr[data-state="drawn"]').waitFor();
}

/** Dark and light pixels of the QR canvas: a code has plenty of both. */
const qrInk = (page: Page) => page.locator('canvas.address-qr').evaluate((canvas: HTMLCanvasElement) => {
  const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
  let dark = 0;
  let light = 0;
  for (let index = 0; index < data.length; index += 4) {
    const level = (data[index] + data[index + 1] + data[index + 2]) / 3;
    if (data[index + 3] > 200 && level < 64) dark += 1;
    else if (data[index + 3] > 200 && level > 192) light += 1;
  }
  return { dark, light, pixels: data.length / 4 };
});

describe('deposit', () => {
  let account: { email: string; token: string };
  const client = new SpecClient(baseUrl);

  beforeAll(async () => {
    fs.mkdirSync(shotsDir, { recursive: true });
    account = await newAccount(baseUrl, dataDir, 'deposit');
  });

  it('deposits USDT on TRC20 with a proof photo made small in the browser, after a confirmation', async () => {
    const page = await localizedPage(browser(), { token: account.token });
    const applies: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/finance/appRecharge/apply')) applies.push(request.method());
    });
    await openDeposit(page);

    // The address is the server's, and its QR code is drawn.
    const server = result(await client.get<DepositAddress>('/finance/rechargeAddr/getAddr', { currency: 'USDT', network: 'TRC20' }, account.token), 'address');
    await expect.poll(() => page.getByTestId('deposit-address').textContent()).toBe(server.address);
    expect(await page.getByRole('radio', { name: 'USDT' }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'TRC20' }).isChecked()).toBe(true);
    const qr = page.getByRole('img', { name: 'QR code of the USDT TRC20 deposit address' });
    await qr.waitFor();
    const ink = await qrInk(page);
    expect(ink.dark).toBeGreaterThan(ink.pixels * 0.2);
    expect(ink.light).toBeGreaterThan(ink.pixels * 0.2);
    await expect.poll(() => page.getByText('Minimum deposit: 10.00 USDT').count()).toBe(1);
    await expect.poll(() => page.getByText(/Send only USDT on the TRC20 network/).count()).toBe(1);

    // Below the minimum: refused under the field, and nothing is sent.
    const amount = page.getByPlaceholder('At least 10');
    expect(await amount.getAttribute('inputmode')).toBe('decimal');
    await amount.fill('5');
    await amount.blur();
    const amountError = page.locator('.adm-form-item', { has: amount }).locator('.adm-form-item-feedback-error');
    await expect.poll(() => amountError.textContent()).toBe('The minimum deposit is 10.00 USDT.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => page.locator('.adm-form-item-feedback-error').count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('.adm-dialog').count()).toBe(0);
    await page.screenshot({ path: path.join(shotsDir, 'journey-refused-en-us-390.png'), fullPage: true });

    await amount.fill('25.5');
    await amount.blur();
    await expect.poll(() => amountError.count()).toBe(0);
    await expect.poll(() => page.getByTestId('deposit-arrival').textContent()).toBe('25.50 USDT');
    const txHash = crypto.randomBytes(32).toString('hex');
    await page.getByPlaceholder('Paste it from your wallet').fill(txHash);

    // A 2000×1500 photo with grain (so it weighs what a photo weighs), uploaded over a slow link.
    const photo = await sharp({
      create: { width: 2000, height: 1500, channels: 3, background: { r: 40, g: 110, b: 190 }, noise: { type: 'gaussian', mean: 120, sigma: 40 } },
    }).png().toBuffer();
    expect((await sharp(photo).metadata()).width).toBe(2000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: -1, uploadThroughput: 192 * 1024 });
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"]');
        const value = bar?.getAttribute('aria-valuenow');
        if (value !== null && value !== undefined && seen.at(-1) !== value) seen.push(value);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
    });
    const uploaded = page.waitForResponse((response) => response.url().includes('/api/sys/common/upload'));
    await page.getByLabel('Choose a photo from the gallery').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: photo });
    await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    await page.screenshot({ path: path.join(shotsDir, 'journey-uploading-en-us-390.png') });
    const upload = await uploaded;
    const request = upload.request();
    expect(request.headers()[tokenHeader.toLowerCase()]).toBe(account.token);
    const stored = ((await upload.json()) as { result: { id: string; contentType: string; size: number } }).result;
    expect(stored.contentType).toBe('image/jpeg');
    await page.getByText('Photo uploaded.').waitFor();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen.map(Number));
    // The bar moved through the upload: at least one value strictly between the ends.
    expect(seen.some((value) => value > 0 && value < 100)).toBe(true);
    expect(await page.getByRole('img', { name: 'Preview of the payment proof' }).isVisible()).toBe(true);

    // What was sent was made small: 1600×1200, the photo's proportions, as JPEG.
    const bytes = Buffer.from(await (await fetch(new URL(`/api/sys/common/file/${stored.id}`, baseUrl), { headers: { [tokenHeader]: account.token } })).arrayBuffer());
    const sent = await sharp(bytes).metadata();
    expect([sent.width, sent.height, sent.format]).toEqual([1600, 1200, 'jpeg']);
    expect(bytes.length).toBeLessThan(photo.length);

    // Submit: a confirmation sums it up, then the request goes and the result page opens.
    expect(applies).toEqual([]);
    await page.getByRole('button', { name: 'Submit' }).click();
    const dialog = page.locator('.adm-dialog');
    await dialog.getByText('Confirm the deposit').waitFor();
    const summary = await dialog.locator('.deposit-summary').innerText();
    for (const part of ['USDT', 'TRC20', '25.50 USDT', txHash]) expect(summary).toContain(part);
    // The picture after the dialog's opening animation (a picture only: nothing is asserted on time).
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(shotsDir, 'journey-confirm-en-us-390.png') });
    const where = await box(dialog.locator('.adm-dialog-body'));
    expect(where.x).toBeGreaterThanOrEqual(0);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/#\/chongzhitixianResult\?kind=deposit&id=\d+$/);
    const id = /id=(\d+)$/.exec(page.url())![1];
    expect(applies).toEqual(['POST']);

    const mine = result(await client.get<PageOf<RechargeRecord>>('/finance/appRecharge/listMy', { pageNo: 1, pageSize: 10 }, account.token), 'records');
    const record = mine.records.find((entry) => entry.id === id);
    expect(record).toMatchObject({
      id, currency: 'USDT', network: 'TRC20', amount: '25.500000', status: 0, txHash, proofFileId: stored.id, depositAddress: server.address,
    });
  });

  it('fits 390 and 320 px in English, Spanish and Korean, with an amount refused in the language', async () => {
    for (const locale of ['en-us', 'xi', 'ko']) {
      for (const width of [390, 320]) {
        if (!layoutRun(locale, width)) continue;
        const page = await localizedPage(browser(), { width, lang: locale, token: account.token });
        await openDeposit(page);
        const minimum = walletText(locale, 'The minimum deposit is {minimum} {code}.', { minimum: locale === 'xi' ? '10,00' : '10.00', code: 'USDT' });
        const amount = page.locator('input[inputmode="decimal"]');
        await amount.fill('3');
        await amount.blur();
        const error = page.locator('.adm-form-item', { has: amount }).locator('.adm-form-item-feedback-error');
        await expect.poll(() => error.textContent()).toBe(minimum);
        await page.screenshot({ path: path.join(shotsDir, `deposit-${locale}-${width}.png`), fullPage: true });
        expect((await overflowing(page)).problems, `${locale} at ${width}`).toBe('');
        // The long address breaks inside its box rather than widening the page.
        const address = await box(page.getByTestId('deposit-address'));
        expect(address.x + address.width).toBeLessThanOrEqual(width);
        await page.context().close();
      }
    }
  });
});
