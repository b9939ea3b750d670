// Every date on every page goes through one module (issue 19 point 4): the browser runs in Los
// Angeles, 16 hours from the server's UTC+8 wall clock, so a time printed without conversion
// shows. A user with a bound authenticator, a deposit, a withdrawal, a closed position, a swap, an
// option and sessions walks the pages that show dates, then the operator walks the back office's:
// no page may show the server's "YYYY-MM-DD HH:mm" form (the module never writes it) nor the
// UTC+8 rendering of a known event, and each known event shows at its Los Angeles time in the
// language's one form. The expected texts are computed in the page by Chromium's own Intl.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { base32Decode, totp } from '../conformance/adminClient.ts';
import { SpecClient, type Answer } from '../conformance/specClient.ts';
import { browserForFile, codeFromOutbox, settled } from './browser.ts';
import { backOfficeContext, fundAccount, newAccount, operatorSession, uploadProof } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);
const shots = process.env.DATES_SHOTS_DIR ?? '/tmp/shots-dates';

const deviceZone = 'America/Los_Angeles';
const serverZone = 'Asia/Shanghai'; // UTC+8, no summer time: the zone of the server's wall clock
/** The server's own form of a time (spec §9), which no page may show. */
const serverForm = /\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/;
/** The module's forms (src/lib/time.ts): Intl's medium date with seconds, and the medium date. */
const dateTimeOptions: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' };
const dateOptions: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const intlOf: Record<string, string> = { 'en-us': 'en-US', 'zh-tw': 'zh-TW', xi: 'es-ES' };

function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200 && answer.envelope?.code !== 0) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}

/** A server wall-clock string "YYYY-MM-DD HH:mm:ss" (UTC+8) as epoch milliseconds. */
function serverStringMs(text: string): number {
  const [date, time = '00:00:00'] = text.trim().split(' ');
  return Date.parse(`${date}T${time}+08:00`);
}

/** Spaces as ICU writes them differ (narrow no-break before AM/PM): compare with plain spaces. */
const plain = (text: string) => text.replace(/[\s\u202f\u00a0]+/g, ' ');

/** The instant as the page's Intl writes it in `zone` and the language, in one of the module's forms. */
const rendered = (page: Page, ms: number, zone: string, lang: string, dateOnly = false) => page.evaluate(
  ([at, timeZone, intl, options]) => new Intl.DateTimeFormat(intl, { ...options, timeZone }).format(at),
  [ms, zone, intlOf[lang], dateOnly ? dateOptions : dateTimeOptions] as const).then(plain);

interface Known { what: string; ms: number; dateOnly?: boolean }

/**
 * The visible text of the page once `ready` shows: it holds each known event at its device-zone
 * rendering, and neither the server form nor any event's UTC+8 rendering.
 */
async function checkDates(page: Page, where: string, known: Known[], lang = 'en-us') {
  const text = async () => plain(await page.evaluate(() => document.body.innerText));
  for (const event of known) {
    const local = await rendered(page, event.ms, deviceZone, lang, event.dateOnly);
    await expect.poll(text, { timeout: 20_000, message: `${where}: ${event.what} at ${local}` }).toContain(local);
  }
  const shown = await text();
  expect(shown.match(serverForm)?.[0], `${where} shows a server wall-clock time`).toBeUndefined();
  for (const event of known) {
    const atServer = await rendered(page, event.ms, serverZone, lang, event.dateOnly);
    const local = await rendered(page, event.ms, deviceZone, lang, event.dateOnly);
    if (atServer !== local) expect(shown, `${where} shows ${event.what} at the server's UTC+8 time`).not.toContain(atServer);
  }
}

/**
 * Back office tables at 1280 px (issue 19 point 16): each fits its box, and a time, each side of
 * an e-mail's @, an amount or a cut text stays inside its cell (a time ran under the Review button
 * and over the Operator column) on one line. Answers what does not, empty when all fit.
 */
const cellsOverflowing = (page: Page) => page.evaluate(() => {
  const out: string[] = [];
  for (const table of document.querySelectorAll<HTMLElement>('.ant-table-wrapper')) {
    const inner = table.querySelector('table')!.getBoundingClientRect();
    if (inner.right > table.getBoundingClientRect().right + 0.5) out.push(`a table runs ${Math.round(inner.right - table.getBoundingClientRect().right)} px past its box`);
  }
  for (const element of document.querySelectorAll<HTMLElement>('.ant-table-tbody td :is(.admin-time, .admin-email-part, .admin-cut, .admin-amount)')) {
    const cell = element.closest('td')!.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    const lineHeight = parseFloat(getComputedStyle(element).lineHeight) || 22;
    if (box.right > cell.right + 0.5 || box.left < cell.left - 0.5 || box.height > lineHeight * 1.5) {
      out.push(`${element.className} "${element.textContent}" ${Math.round(box.left)}..${Math.round(box.right)} in ${Math.round(cell.left)}..${Math.round(cell.right)}, ${Math.round(box.height)} px high`);
    }
  }
  return out;
});

/** A phone page in Los Angeles, logged in with `token`, in `lang`. */
async function phoneInLosAngeles(browser: Browser, token: string, lang: string, width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width, height: width <= 320 ? 640 : 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2,
    timezoneId: deviceZone, locale: intlOf[lang],
  });
  context.setDefaultTimeout(20_000);
  await context.addInitScript(({ lang, token }) => {
    if (sessionStorage.getItem('seeded')) return;
    localStorage.setItem('lang', lang);
    localStorage.setItem('token', token);
    sessionStorage.setItem('seeded', '1');
  }, { lang, token });
  return { context, page: await context.newPage() };
}

interface History {
  email: string; token: string; joinedMs: number; boundMs: number; boundAt: string; depositMs: number; withdrawalMs: number;
  closedMs: number; swapMs: number; optionId: string;
}

/** The user's history, built through the API as the app would: every kind of dated record. */
async function buildHistory(): Promise<History> {
  const account = await newAccount(baseUrl, dataDir, 'e2e-dates');
  const { token } = account;
  await fundAccount(baseUrl, token, '1000');
  const deposits = result(await client.get<{ records: Array<{ createTime: number }> }>('/finance/appRecharge/listMy', { pageNo: 1, pageSize: 10 }, token), 'deposits');
  // A second deposit left under review: the back office lists it with its Review button.
  result(await client.post('/finance/appRecharge/apply', { currency: 'USDT', network: 'TRC20', amount: '25',
    proofFileId: await uploadProof(baseUrl, token), txHash: crypto.randomBytes(32).toString('hex') }, token), 'deposit under review');

  // A withdrawal (before the authenticator, which a withdrawal would then ask for).
  const destination = result(await client.addWithdrawalAccount({ type: 'chain', currency: 'USDT', network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }, token), 'destination');
  result(await client.withdrawPasswordEmailCode(account.email, token), 'withdrawal password code');
  const withdrawPassword = 'Payout2026dates';
  result(await client.setWithdrawPassword(withdrawPassword, await codeFromOutbox(dataDir, account.email), token), 'withdrawal password');
  result(await client.applyWithdrawal({ currency: 'USDT', amount: '20', withdrawalInfoId: destination.id, withdrawPassword }, token), 'withdrawal');
  const withdrawals = result(await client.listMyWithdrawals(token, { pageNo: 1, pageSize: 10 }), 'withdrawals') as unknown as { records: Array<{ createTime: number }> };

  // A contract opened and closed, a swap and an option.
  const settings = result(await client.get<Array<{ symbol: string; leverages: number[] }>>('/trade/appSymbol/tradeSettings'), 'trade settings')
    .find((row) => row.symbol === 'BTCUSDT')!;
  const position = result(await client.post<{ id: string }>('/trade/appTradePositions/create', {
    symbol: 'BTCUSDT', direction: 'long', leverage: settings.leverages[0], margin: '100', clientOrderId: `e2e-dates-${crypto.randomBytes(4).toString('hex')}`,
  }, token), 'open position');
  const closed = result(await client.post<{ closeTime: number }>(`/trade/appTradePositions/close/${position.id}`, {}, token), 'close position');
  const quote = result(await client.get<{ quoteId: string }>('/trade/appFlashExchangeLog/quote', { from: 'USDT', to: 'USDC', amount: '40' }, token), 'quote');
  const swap = result(await client.post<{ createTime: number }>('/trade/appFlashExchangeLog/flashExchange', { quoteId: quote.quoteId }, token), 'swap');
  const sets = result(await client.get<Array<{ symbol: string; durations: Array<{ seconds: number }> }>>('/trade/appSecondContractSet/list'), 'option sets');
  const duration = sets.find((row) => row.symbol === 'BTCUSDT')!.durations[0].seconds;
  const option = result(await client.post<{ id: string }>('/trade/appSecondContractOrder/buy', {
    symbol: 'BTCUSDT', direction: 'up', duration, amount: '20', clientOrderId: `e2e-dates-${crypto.randomBytes(4).toString('hex')}`,
  }, token), 'option');

  // Google Authenticator, bound last: its binding time is a server wall-clock string (boundAt).
  const key = result(await client.get<{ secret: string }>('/app/generateGoogleKey', {}, token), 'authenticator key');
  result(await client.post('/user/appUser/bindGoogleAuth', { secret: key.secret, code: totp(base32Decode(key.secret), Date.now()) }, token), 'bind');
  const state = result(await client.get<{ boundAt?: string }>('/user/appUser/googleAuthState', {}, token), 'authenticator state');
  const user = result(await client.myUserInfo(token), 'user') as unknown as { createTime: string };
  expect(state.boundAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  expect(user.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  return {
    email: account.email, token, joinedMs: serverStringMs(user.createTime), boundAt: state.boundAt!, boundMs: serverStringMs(state.boundAt!),
    depositMs: deposits.records[0].createTime, withdrawalMs: withdrawals.records[0].createTime, closedMs: closed.closeTime,
    swapMs: swap.createTime, optionId: option.id,
  };
}

describe('the date module on every page', () => {
  let history: History;

  it('shows every app page\'s dates in the device\'s zone, never the server\'s wall clock (en-us, 390 px)', async () => {
    fs.mkdirSync(shots, { recursive: true });
    history = await buildHistory();
    const { context, page } = await phoneInLosAngeles(browser(), history.token, 'en-us', 390);
    try {
      const visit = async (route: string) => {
        await page.goto(`${baseUrl}/#/${route}`);
        await settled(page);
      };
      const shot = (name: string) => page.screenshot({ path: `${shots}/${name}-en-us-390.png`, fullPage: true });

      // The bug: "Bound since" printed the UTC+8 wall clock raw.
      await visit('anquanZhongxin');
      await page.locator('.two-factor-status[data-bound="true"]').waitFor();
      await page.locator('.sessions-list li').first().waitFor();
      expect(plain(await page.locator('.two-factor-status').innerText())).not.toContain(history.boundAt);
      const sessions = result(await client.get<Array<{ createdAt: number }>>('/user/appSession/listMy', {}, history.token), 'sessions');
      await checkDates(page, 'security', [{ what: 'the authenticator binding', ms: history.boundMs },
        ...sessions.map((session) => ({ what: 'a session', ms: session.createdAt }))]);
      await shot('security');

      await visit('chongzhitixianRecord');
      await checkDates(page, 'deposit records', [{ what: 'the deposit', ms: history.depositMs }]);
      await shot('deposit-records');
      await page.getByRole('tab', { name: 'Withdrawals' }).click();
      await checkDates(page, 'withdrawal records', [{ what: 'the withdrawal', ms: history.withdrawalMs }]);
      await shot('withdrawal-records');

      await visit('zhangbianRecord');
      await page.locator('.ledger-list li').first().waitFor();
      await checkDates(page, 'ledger', []);
      await shot('ledger');

      await visit('heyue?symbol=BTCUSDT');
      await page.getByRole('tab', { name: 'History' }).click();
      await checkDates(page, 'contract history', [{ what: 'the closed position', ms: history.closedMs }]);
      await shot('contract-history');

      await visit('shanduiOrder');
      await checkDates(page, 'swap records', [{ what: 'the swap', ms: history.swapMs }]);
      await shot('swap-records');

      await visit('my');
      await checkDates(page, 'my page', [{ what: 'the account opening', ms: history.joinedMs, dateOnly: true }]);
      await shot('my');

      await visit('zichanCenter');
      await checkDates(page, 'asset centre', []);
      await shot('asset-centre');

      // The option settles after its duration; its receipt shows when it was accepted.
      await visit('heyue?mode=options');
      const card = page.locator(`li.option-order[data-order-id="${history.optionId}"]:not([data-status="open"])`);
      await card.waitFor({ timeout: 90_000 });
      const order = result(await client.get<{ records: Array<{ id: string; acceptTime: number; expireTime: number }> }>(
        '/trade/appSecondContractOrder/listMy', { status: 'settled', pageNo: 1, pageSize: 10 }, history.token), 'options')
        .records.find((row) => row.id === history.optionId)!;
      await checkDates(page, 'options', [{ what: 'the option acceptance', ms: order.acceptTime }, { what: 'the option expiry', ms: order.expireTime }]);
      await shot('options');
    } finally {
      await context.close();
    }
  }, 300_000);

  it('writes each language\'s one form at 320 px (zh-tw, xi)', async () => {
    for (const lang of ['zh-tw', 'xi']) {
      const { context, page } = await phoneInLosAngeles(browser(), history.token, lang, 320);
      try {
        await page.goto(`${baseUrl}/#/anquanZhongxin`);
        await settled(page);
        await page.locator('.two-factor-status[data-bound="true"]').waitFor();
        await checkDates(page, `security (${lang})`, [{ what: 'the authenticator binding', ms: history.boundMs }], lang);
        await page.screenshot({ path: `${shots}/security-${lang}-320.png`, fullPage: true });
        await page.goto(`${baseUrl}/#/chongzhitixianRecord`);
        await settled(page);
        await checkDates(page, `deposit records (${lang})`, [{ what: 'the deposit', ms: history.depositMs }], lang);
        await page.screenshot({ path: `${shots}/deposit-records-${lang}-320.png`, fullPage: true });
      } finally {
        await context.close();
      }
    }
  });

  it('shows the back office\'s dates in the operator\'s zone (1280 × 800)', async () => {
    const token = await operatorSession(baseUrl);
    const context = await browser().newContext({ ...backOfficeContext, timezoneId: deviceZone });
    context.setDefaultTimeout(20_000);
    await context.addInitScript((value) => {
      localStorage.setItem('bourse.admin.lang', 'en-us');
      sessionStorage.setItem('bourse.admin.token', value);
    }, token);
    const page = await context.newPage();
    try {
      await page.goto(`${baseUrl}/admin.html`);
      await page.getByTestId('admin-operator').waitFor();
      const section = async (name: string) => {
        await page.getByRole('menuitem', { name }).click();
      };
      const shot = (name: string) => page.screenshot({ path: `${shots}/admin-${name}-1280.png` });

      await section('Deposits');
      await page.getByTestId('deposits-table').locator('.ant-table-row').filter({ hasText: history.email }).first().waitFor();
      await checkDates(page, 'back office deposits under review', []);
      expect(await cellsOverflowing(page)).toEqual([]);
      await shot('deposits-review');
      await page.getByRole('tab', { name: 'Delivered' }).click();
      await checkDates(page, 'back office deposits', [{ what: 'the deposit', ms: history.depositMs }]);
      expect(await cellsOverflowing(page)).toEqual([]);
      await shot('deposits');

      await section('Withdrawals');
      await checkDates(page, 'back office withdrawals', [{ what: 'the withdrawal', ms: history.withdrawalMs }]);
      expect(await cellsOverflowing(page)).toEqual([]);
      await shot('withdrawals');

      await section('Audit trail');
      await page.locator('.ant-table-row').first().waitFor();
      await checkDates(page, 'audit trail', []);
      expect(await cellsOverflowing(page)).toEqual([]);
      await shot('audit');

      await section('User search');
      await page.getByTestId('user-search').locator('input').fill(history.email);
      await page.getByTestId('user-search').locator('input').press('Enter');
      await page.getByTestId('users-table').locator('.ant-table-row').first().waitFor();
      await checkDates(page, 'user search', [{ what: 'the account opening', ms: history.joinedMs }]);
      await shot('users');
    } finally {
      await context.close();
    }
  });
});
