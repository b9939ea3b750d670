// Issue 19, what a Binance user looks for: a closed position's receipt shared as an image, and the
// contract history filtered. In Chromium at 390×844 against the real server: two positions on two
// symbols are opened and closed through the API; on /heyue the history's symbol filter narrows the
// list to one and a result no position has says nothing matches; the receipt's Share button hands
// navigator.share (stubbed before the app loads, recording the call) one PNG file, which is decoded
// here and written to /tmp/shots-share/ to be looked at, beside a screenshot of the receipt.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { describe, expect, inject, it } from 'vitest';
import { SpecClient, type Answer } from '../conformance/specClient.ts';
import { browserForFile, localizedPage, overflowing, settled } from './browser.ts';
import { fundAccount, newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);
const shotsDir = '/tmp/shots-share';

function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}

interface Setting { symbol: string; enabled: boolean; open: boolean; leverages: number[] }
interface Shared { title?: string; text?: string; url?: string; fileType?: string; fileName?: string; size?: number; base64?: string }

/** Records every navigator.share call (with the file's bytes) instead of opening a share sheet. */
function stubShare() {
  const shares: Shared[] = [];
  (window as unknown as { shares: Shared[] }).shares = shares;
  Object.defineProperty(navigator, 'canShare', {
    configurable: true, value: (data?: ShareData) => Boolean(data?.files?.length),
  });
  Object.defineProperty(navigator, 'share', {
    configurable: true,
    value: async (data: ShareData) => {
      const file = data.files?.[0];
      const record: Shared = { title: data.title, text: data.text, url: data.url, fileType: file?.type, fileName: file?.name, size: file?.size };
      if (file) {
        record.base64 = await new Promise<string>((resolve) => {
          const reader = new FileReader();
          reader.onload = () => resolve(String(reader.result).split(',')[1]);
          reader.readAsDataURL(file);
        });
      }
      shares.push(record);
    },
  });
}

describe('share a receipt, filter the history', () => {
  it('narrows the contract history by symbol, and shares a closed position\'s receipt as a PNG', async () => {
    await fs.mkdir(shotsDir, { recursive: true });
    const { token } = await newAccount(baseUrl, dataDir, 'share');
    await fundAccount(baseUrl, token, '1000');
    const settings = result(await client.get<Setting[]>('/trade/appSymbol/tradeSettings'), 'trade settings')
      .filter((row) => row.enabled && row.open);
    const btc = settings.find((row) => row.symbol === 'BTCUSDT')!;
    const other = settings.find((row) => row.symbol !== 'BTCUSDT' && row.symbol.endsWith('USDT')) ?? settings.find((row) => row.symbol !== 'BTCUSDT')!;
    expect(btc && other).toBeTruthy();
    const closeOne = async (setting: Setting) => {
      const opened = result(await client.post<{ id: string }>('/trade/appTradePositions/create', {
        symbol: setting.symbol, direction: 'long', leverage: setting.leverages[0], margin: '50',
        clientOrderId: `e2e-share-${crypto.randomBytes(4).toString('hex')}`,
      }, token), `open ${setting.symbol}`);
      result(await client.post(`/trade/appTradePositions/close/${opened.id}`, {}, token), `close ${setting.symbol}`);
      return opened.id;
    };
    const btcId = await closeOne(btc);
    const otherId = await closeOne(other);

    const page = await localizedPage(browser(), { token });
    await page.context().addInitScript(stubShare);
    await page.goto(`${baseUrl}/#/heyue?symbol=BTCUSDT`);
    await settled(page);
    await page.getByRole('tab', { name: 'History' }).click();
    const rows = page.locator('.history-list > li');
    await page.getByRole('button', { name: `Receipt of ${other.symbol} position ${otherId}` }).waitFor();
    expect(await rows.count()).toBe(2);

    // The symbol filter narrows the list on the server's answer; a result nobody has says so.
    await page.getByTestId('history-filter-symbol').selectOption(other.symbol);
    await page.waitForFunction(() => document.querySelectorAll('.history-list > li').length === 1);
    expect(await rows.first().getByRole('button').getAttribute('aria-label')).toBe(`Receipt of ${other.symbol} position ${otherId}`);
    await page.getByTestId('history-filter-result').selectOption('even');
    await page.getByTestId('history-no-match').waitFor();
    expect(await page.locator('.history-list').count()).toBe(0);
    await page.screenshot({ path: `${shotsDir}/history-no-match-390.png` });
    await page.getByTestId('history-no-match').getByRole('button').click();
    await page.waitForFunction(() => document.querySelectorAll('.history-list > li').length === 2);
    await page.locator('.history-filter-period[data-period="today"]').click();
    await page.getByTestId('history-filter-symbol').selectOption('BTCUSDT');
    await page.waitForFunction(() => document.querySelectorAll('.history-list > li').length === 1);
    await page.screenshot({ path: `${shotsDir}/history-filtered-390.png` });
    expect((await overflowing(page)).problems).toBe('');

    // The receipt's Share hands navigator.share one PNG file.
    await page.getByRole('button', { name: `Receipt of BTCUSDT position ${btcId}` }).click();
    const sheet = page.getByRole('dialog');
    await sheet.getByTestId('receipt-reason').waitFor();
    await page.screenshot({ path: `${shotsDir}/receipt-sheet-390.png` });
    await sheet.getByTestId('share-receipt').click();
    await page.waitForFunction(() => (window as unknown as { shares: unknown[] }).shares.length === 1);
    const [shared] = await page.evaluate(() => (window as unknown as { shares: Shared[] }).shares);
    expect(shared.fileType).toBe('image/png');
    expect(shared.fileName).toBe(`receipt-${btcId}.png`);
    expect(shared.text).toContain('BTC/USDT');
    expect(`${shared.title} ${shared.text}`).not.toContain(token);
    const png = Buffer.from(shared.base64!, 'base64');
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // The IHDR chunk: width 1080 and a height that holds every row.
    expect(png.readUInt32BE(16)).toBe(1080);
    expect(png.readUInt32BE(20)).toBeGreaterThan(800);
    await fs.writeFile(`${shotsDir}/receipt-image.png`, png);

    // At 320 px in Spanish the filter bar and the receipt's head fit without sideways scrolling.
    const narrow = await localizedPage(browser(), { token, width: 320, lang: 'xi' });
    await narrow.goto(`${baseUrl}/#/heyue?symbol=BTCUSDT&receipt=${btcId}`);
    await settled(narrow);
    // The shared link (?receipt=) opens that receipt over the history.
    await narrow.getByRole('dialog').getByTestId('share-receipt').waitFor();
    expect((await overflowing(narrow)).problems).toBe('');
    await narrow.screenshot({ path: `${shotsDir}/receipt-link-320-xi.png` });
    await narrow.getByRole('dialog').locator('.sheet-close').click();
    await narrow.getByTestId('history-filters').waitFor();
    await narrow.getByTestId('history-filters').scrollIntoViewIfNeeded();
    expect((await overflowing(narrow)).problems).toBe('');
    await narrow.screenshot({ path: `${shotsDir}/history-320-xi.png` });
  });
});
