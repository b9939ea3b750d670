// The operators' back office (/admin.html) in Chromium at a desktop size, against the real server:
// a wrong TOTP code is refused in the form; the demo operator logs in with password and TOTP; a
// fresh user's deposit under review shows with its proof image, is approved in the UI and the
// user's balance rises; another is rejected with a reason the user's record carries; a withdrawal
// is approved and marked paid with a reference, which the user's record shows; raising USDT's
// two-operator threshold back waits for a second operator (the demo operator's own approval is
// refused, the reviewer's applies it) and Setting changes lists it as applied; the ledger check shows valid chains and every
// asset summing to zero; the page loads with no CSP violation; and
// none of the back office's files is in the phone app's service-worker precache.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, inject, it, onTestFailed } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { base32Decode, totp } from '../conformance/adminClient.ts';
import { SpecClient, errorOf, type Answer } from '../conformance/specClient.ts';
import { browserForFile, codeFromOutbox } from './browser.ts';
import { backOfficeContext, demoOperator, fundAccount, newAccount, operatorCode, operatorSession, reviewerSession, uploadProof } from './money.ts';

const shots = '/tmp/shots-admin';
const tronAddress = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const withdrawPassword = 'Payout2026e2e';
const root = path.resolve(import.meta.dirname, '../..');
const outDir = path.resolve(root, process.env.E2E_OUT_DIR ?? 'dist');

function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}

/** A real PNG of `width`×`height` (diagonal stripes), so the proof shows large in the drawer. */
function stripedPng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = y * (width * 3 + 1) + 1 + x * 3;
      const stripe = Math.floor((x + y) / 24) % 2 === 0;
      rows.set(stripe ? [11, 61, 145] : [235, 240, 250], offset);
    }
  }
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const balanceOf = async (client: SpecClient, token: string, currency: string) => {
  const balances = result(await client.get<Array<{ currency: string; available: string }>>('/finance/appWallet/queryUserBalance', {}, token), 'balance');
  return balances.find((item) => item.currency === currency)?.available ?? '0';
};

/** Drawers and modals slide in: a screenshot waits until nothing on the page is moving. */
const still = (page: Page) => page.waitForFunction(() => document.getAnimations().every((animation) =>
  animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity), undefined, { timeout: 5_000 })
  // A screenshot is for looking at, not an assertion: a slow animation only makes it less tidy.
  .catch(() => undefined);

const atomic = (amount: string, scale = 6) => {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
};

describe('the back office', () => {
  const getBrowser = browserForFile();
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  const client = new SpecClient(baseUrl);
  let user: { email: string; password: string; token: string };
  let approveId: string;
  let rejectId: string;
  let withdrawalId: string;
  let dualId: string;
  let thresholdChangeId: string;
  let page: Page;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true });
    user = await newAccount(baseUrl, dataDir, 'admin');
    // 100 USDT through a deposit the demo operator approves over the API (its login takes this
    // TOTP step; the browser's login below uses the next one, as a code is accepted once).
    await fundAccount(baseUrl, user.token, '100');
    const apply = async (amount: string, bytes: Buffer) => {
      const proofFileId = await uploadProof(baseUrl, user.token, bytes);
      const txHash = crypto.randomBytes(32).toString('hex');
      return result(await client.post<{ id: string }>('/finance/appRecharge/apply',
        { currency: 'USDT', network: 'TRC20', amount, proofFileId, txHash }, user.token), 'deposit').id;
    };
    approveId = await apply('25', stripedPng(640, 480));
    rejectId = await apply('12', stripedPng(320, 240));

    const destination = result(await client.addWithdrawalAccount({ type: 'chain', currency: 'USDT', network: 'TRC20', address: tronAddress }, user.token), 'bind');
    result(await client.withdrawPasswordEmailCode(user.email, user.token), 'withdrawal password code');
    const code = await codeFromOutbox(dataDir, user.email);
    result(await client.setWithdrawPassword(withdrawPassword, code, user.token), 'withdrawal password');
    withdrawalId = result(await client.applyWithdrawal({ currency: 'USDT', amount: '20', withdrawalInfoId: destination.id, withdrawPassword }, user.token), 'withdraw').id;
    // A second one above a lowered two-operator threshold (fixed when it is made; lowering applies
    // at once), then the threshold back to its default so other journeys on this server are not
    // affected. Raising it is a request (issue 38): the demo operator may not approve their own,
    // the second demo operator (reviewer, finance) does.
    const operator = await operatorSession(baseUrl);
    expect(result(await client.post<{ dualApprovalAbove: string; pendingChange?: unknown }>('/admin/withdrawals/settings/USDT',
      { dualApprovalAbove: '15' }, operator), 'threshold')).toEqual({ currency: 'USDT', dualApprovalAbove: '15.000000' });
    dualId = result(await client.applyWithdrawal({ currency: 'USDT', amount: '16', withdrawalInfoId: destination.id, withdrawPassword }, user.token), 'withdraw').id;
    const raised = result(await client.post<{ dualApprovalAbove: string; pendingChange?: { id: string; requestedBy: string } }>(
      '/admin/withdrawals/settings/USDT', { dualApprovalAbove: '10000' }, operator), 'threshold');
    expect(raised.dualApprovalAbove).toBe('15.000000');
    thresholdChangeId = raised.pendingChange!.id;
    const own = await client.post(`/admin/settingChanges/${thresholdChangeId}/approve`, {}, operator);
    expect({ status: own.status, error: errorOf(own) }).toEqual({ status: 409, error: 'setting_change_requested_by_you' });
    const approver = await reviewerSession(baseUrl);
    expect(result(await client.post<{ status: string }>(`/admin/settingChanges/${thresholdChangeId}/approve`, {}, approver), 'approve threshold').status)
      .toBe('applied');
    const thresholds = result(await client.get<Array<{ currency: string; dualApprovalAbove: string }>>('/admin/withdrawals/settings', {}, operator), 'thresholds');
    expect(thresholds.find((row) => row.currency === 'USDT')?.dualApprovalAbove).toBe('10000.000000');
  });

  const openAdmin = async (browser: Browser) => {
    const context = await browser.newContext(backOfficeContext);
    context.setDefaultTimeout(20_000);
    await context.addInitScript(() => {
      localStorage.setItem('bourse.admin.lang', 'en-us');
      document.addEventListener('securitypolicyviolation', (event) => {
        (window as unknown as { cspViolations: string[] }).cspViolations ??= [];
        (window as unknown as { cspViolations: string[] }).cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    const opened = await context.newPage();
    opened.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await opened.goto(`${baseUrl}/admin.html`);
    await opened.getByRole('button', { name: 'Log in' }).waitFor();
    return opened;
  };

  const fillLogin = async (code: string) => {
    await page.getByLabel('Operator e-mail').fill(demoOperator.email);
    await page.getByLabel('Password').fill(demoOperator.password);
    await page.getByLabel('Authenticator code').fill(code);
    await page.getByRole('button', { name: 'Log in' }).click();
  };

  it('refuses a wrong TOTP code in the form, then logs the operator in', async () => {
    page = await openAdmin(getBrowser());
    const serverTime = await client.serverTime();
    const key = base32Decode(demoOperator.totpSecret);
    const near = new Set([-1, 0, 1, 2].map((step) => totp(key, serverTime + step * 30_000)));
    let wrong = totp(key, serverTime - 3_600_000);
    while (near.has(wrong)) wrong = String((Number(wrong) + 1) % 1_000_000).padStart(6, '0');
    await fillLogin(wrong);
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('The account, password or code is wrong.');
    await still(page);
    await page.screenshot({ path: `${shots}/login-error-en-us-1280.png` });

    // Every journey's operator login takes a step of its own (money.ts reserves them in order).
    await page.getByLabel('Authenticator code').fill(await operatorCode(baseUrl));
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByTestId('admin-operator').textContent()).toBe(demoOperator.email);
    expect(await page.evaluate(() => sessionStorage.getItem('bourse.admin.token'))).toBeTruthy();
    expect(await page.evaluate(() => localStorage.getItem('bourse.admin.token'))).toBeNull();
  });

  it('shows a deposit under review with its proof image, and approving it credits the user', async () => {
    const before = await balanceOf(client, user.token, 'USDT');
    const row = page.getByTestId('deposits-table').locator('tr', { hasText: user.email }).filter({ hasText: '25.000000' });
    await row.getByRole('button', { name: 'Review' }).click();
    const drawer = page.locator('.admin-drawer');
    await expect.poll(() => drawer.textContent()).toContain(user.email);
    const proof = page.getByTestId('proof-image');
    await proof.waitFor();
    await expect.poll(() => proof.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(640);
    expect((await proof.boundingBox())!.width).toBeGreaterThan(400);
    await still(page);
    await page.screenshot({ path: `${shots}/deposit-review-en-us-1280.png` });

    await drawer.getByRole('button', { name: 'Approve' }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => balanceOf(client, user.token, 'USDT')).toBe(
      (() => {
        const sum = atomic(before) + atomic('25');
        return `${sum / 1_000_000n}.${String(sum % 1_000_000n).padStart(6, '0')}`;
      })());
    await expect.poll(() => page.getByTestId('proof-image').count()).toBe(0);
    await expect.poll(() => page.getByTestId('deposits-table').locator('tr', { hasText: user.email }).filter({ hasText: '25.000000' }).count()).toBe(0);
  });

  it('rejects another deposit with a reason the user reads on the record', async () => {
    const row = page.getByTestId('deposits-table').locator('tr', { hasText: user.email }).filter({ hasText: '12.000000' });
    await row.getByRole('button', { name: 'Review' }).click();
    await page.getByTestId('proof-image').waitFor();
    await page.locator('.admin-drawer').getByRole('button', { name: 'Reject' }).click();
    const modal = page.locator('.ant-modal', { hasText: 'Reject this deposit' });
    // The reason is required: the modal says so and stays open.
    await modal.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => modal.textContent()).toContain('This field is required.');
    await modal.getByLabel('Reason (the user reads it)').fill('The proof does not show the transaction.');
    await still(page);
    await page.screenshot({ path: `${shots}/deposit-reject-en-us-1280.png` });
    await modal.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(async () => {
      const records = result(await client.get<{ records: Array<{ id: string; status: number; reason: string | null }> }>(
        '/finance/appRecharge/listMy', {}, user.token), 'records').records;
      return records.find((record) => record.id === rejectId);
    }).toMatchObject({ status: -1, reason: 'The proof does not show the transaction.' });
    expect(approveId).toBeTruthy();
  });

  it('approves a withdrawal and marks it paid with a reference, which the user record shows', async () => {
    // One full run saw the payout never recorded (cause not found; the file passes alone): keep the screen.
    onTestFailed(() => page.screenshot({ path: `${shots}/failed-withdrawal-paid.png` }).then(() => undefined, () => undefined));
    await page.getByRole('menuitem', { name: 'Withdrawals' }).click();
    const row = page.getByTestId('withdrawals-table').locator('tr', { hasText: user.email }).filter({ hasText: '20.000000' });
    await expect.poll(() => row.textContent()).toContain('0 of 1');
    await row.getByRole('button', { name: 'Review' }).click();
    const drawer = page.locator('.admin-drawer');
    await expect.poll(() => drawer.textContent()).toContain(tronAddress);
    await still(page);
    await page.screenshot({ path: `${shots}/withdrawal-review-en-us-1280.png` });
    await drawer.getByRole('button', { name: 'Approve' }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => row.textContent()).toContain('Approved, awaiting payout');

    await row.getByRole('button', { name: 'Review' }).click();
    await page.locator('.admin-drawer').getByRole('button', { name: 'Mark paid' }).click();
    const modal = page.locator('.ant-modal', { hasText: 'Mark as paid' });
    const reference = `0x${crypto.randomBytes(16).toString('hex')}`;
    await modal.getByRole('textbox').fill(reference);
    await modal.getByRole('button', { name: 'Mark paid' }).click();
    // The modal closes once the payout is recorded; a refusal stays in it, and is named here.
    await expect.poll(async () => (await modal.isVisible() ? `still open: ${await modal.innerText()}` : 'closed'), { timeout: 20_000 })
      .toBe('closed');
    await expect.poll(async () => {
      const records = result(await client.get<{ records: Array<{ id: string; status: number; payoutReference: string | null }> }>(
        '/finance/appWithdrawal/listMy', {}, user.token), 'withdrawals').records;
      return records.find((record) => record.id === withdrawalId);
      // The payout is written after the modal closes; on a loaded machine that took over poll's default 5 s.
    }, { timeout: 20_000 }).toMatchObject({ status: 2, payoutReference: reference });
    await page.getByRole('tab', { name: 'Paid out' }).click();
    await expect.poll(() => page.getByTestId('withdrawals-table').locator('tr', { hasText: user.email }).count()).toBe(1);
  });

  it("refuses the same operator's second approval where two are needed, then rejects with a reason", async () => {
    await page.getByRole('tab', { name: 'Under review' }).click();
    const row = page.getByTestId('withdrawals-table').locator('tr', { hasText: user.email }).filter({ hasText: '16.000000' });
    await expect.poll(() => row.textContent()).toContain('0 of 2');
    await row.getByRole('button', { name: 'Review' }).click();
    await page.locator('.admin-drawer').getByRole('button', { name: 'Approve' }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => row.textContent()).toContain('1 of 2');
    await row.getByRole('button', { name: 'Review' }).click();
    const drawer = page.locator('.admin-drawer');
    await expect.poll(() => drawer.textContent()).toContain('it waits for a second operator');
    await drawer.getByRole('button', { name: 'Approve' }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.getByTestId('decision-error').textContent()).toContain('a second, different operator must approve it');
    await still(page);
    await page.screenshot({ path: `${shots}/withdrawal-refusal-en-us-1280.png` });
    await drawer.getByRole('button', { name: 'Reject' }).click();
    const modal = page.locator('.ant-modal', { hasText: 'Reject this withdrawal' });
    await modal.getByRole('textbox').fill('Destination under compliance review.');
    await modal.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(async () => {
      const records = result(await client.get<{ records: Array<{ id: string; status: number; reason: string | null }> }>(
        '/finance/appWithdrawal/listMy', {}, user.token), 'withdrawals').records;
      return records.find((record) => record.id === dualId);
    }).toMatchObject({ status: -1, reason: 'Destination under compliance review.' });
  });

  it('shows a consistent ledger: valid chains and every asset summing to zero', async () => {
    await page.getByRole('menuitem', { name: 'Ledger check' }).click();
    await page.getByTestId('ledger-result').waitFor();
    await page.getByRole('button', { name: 'Run check' }).click();
    await expect.poll(() => page.getByTestId('chain-valid').textContent()).toBe('Yes');
    const sums = page.getByTestId('ledger-assets').locator('tbody tr');
    expect(await sums.count()).toBeGreaterThan(0);
    expect(await page.getByTestId('ledger-assets').textContent()).not.toContain('Not zero');
    expect(Number((await page.getByTestId('transfer-count').textContent())!.replace(/\D/g, ''))).toBeGreaterThan(0);
    await still(page);
    await page.screenshot({ path: `${shots}/ledger-en-us-1280.png`, fullPage: true });
  });

  it("lists the threshold's raise as applied in Setting changes, asked by this operator and approved by another", async () => {
    await page.getByRole('menuitem', { name: 'Setting changes' }).click();
    await page.getByTestId('setting-changes-table').waitFor();
    await page.getByTestId('setting-changes-all').click();
    const row = page.getByTestId('setting-changes-table').locator(`tr[data-row-key="${thresholdChangeId}"]`);
    await expect.poll(() => row.textContent()).toContain('Approved and applied');
    expect(await row.getByTestId('setting-change-summary').textContent()).toBe('15.000000 → 10,000.000000 USDT');
    const text = await row.textContent();
    expect(text).toContain('Two-operator threshold');
    expect(text).toContain('You');
    await still(page);
    await page.screenshot({ path: `${shots}/setting-changes-en-us-1280.png`, fullPage: true });
  });

  it('takes the other screens in English and Korean (the header language select)', async () => {
    for (const [key, name] of [['settings', 'Currency settings'], ['audit', 'Audit trail'], ['liabilities', 'Proof of liabilities']] as const) {
      await page.getByRole('menuitem', { name }).click();
      await page.waitForTimeout(800);
      await still(page);
      await page.screenshot({ path: `${shots}/${key}-en-us-1280.png`, fullPage: true });
    }
    await page.getByTestId('admin-lang').click();
    await page.getByTitle('한국어').click();
    await expect.poll(() => page.locator('.admin-header h1').textContent()).not.toBe('Proof of liabilities');
    for (const key of ['deposits', 'withdrawals', 'settings', 'ledger', 'audit', 'liabilities']) {
      await page.evaluate((hash) => { window.location.hash = hash; }, `#/${key}`);
      await page.waitForTimeout(800);
      await still(page);
      await page.screenshot({ path: `${shots}/${key}-ko-1280.png`, fullPage: true });
    }
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ko-KR');
    // A decided deposit and a paid withdrawal, in Korean, with their details.
    await page.evaluate(() => { window.location.hash = '#/deposits'; });
    await page.getByRole('tab', { name: '입금 완료' }).click();
    await page.getByTestId('deposits-table').locator('tr', { hasText: user.email }).first().getByRole('button', { name: '상세' }).click();
    await page.getByTestId('proof-image').waitFor();
    await still(page);
    await page.screenshot({ path: `${shots}/deposit-details-ko-1280.png` });
    await page.keyboard.press('Escape');
    await page.evaluate(() => { window.location.hash = '#/withdrawals'; });
    await page.getByRole('tab', { name: '지급 완료' }).click();
    await page.getByTestId('withdrawals-table').locator('tr', { hasText: user.email }).getByRole('button', { name: '상세' }).click();
    await expect.poll(() => page.locator('.admin-drawer').textContent()).toContain('0x');
    await still(page);
    await page.screenshot({ path: `${shots}/withdrawal-details-ko-1280.png` });
    await page.keyboard.press('Escape');
    const cspEvents = await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []);
    expect([...cspViolations, ...cspEvents]).toEqual([]);
  });

  it("keeps every back-office file out of the phone app's precache and its page", async () => {
    const sw = await (await fetch(`${baseUrl}/sw.js`)).text();
    const precached = new Set([...sw.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1]));
    expect(precached.size).toBeGreaterThan(10);
    expect(precached.has('index.html')).toBe(true);
    // The back office is built on its own (vite.admin.config.ts): every file of it is `assets/admin-*`.
    const adminHtml = await (await fetch(`${baseUrl}/admin.html`)).text();
    const referenced = [...adminHtml.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((match) => match[1]);
    expect(referenced.length).toBeGreaterThan(0);
    expect(referenced.filter((file) => !/^assets\/admin-/.test(file))).toEqual([]);
    const adminOnly = fs.readdirSync(path.join(outDir, 'assets')).filter((file) => /^admin-.*\.(js|css)$/.test(file)).map((file) => `assets/${file}`);
    expect(adminOnly.length).toBeGreaterThan(1);
    expect(adminOnly.filter((file) => precached.has(file))).toEqual([]);
    expect([...precached].filter((url) => /admin/.test(url))).toEqual([]);
    const indexHtml = await (await fetch(`${baseUrl}/index.html`)).text();
    for (const file of adminOnly) expect(indexHtml).not.toContain(file);
    expect(indexHtml).not.toContain('admin');
  });
});
