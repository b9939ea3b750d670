// Identity review in the real back office (/admin.html at 1280 px) with the user's phone beside it,
// both in Chromium against the real server (issue 11). A new user applies for basic verification
// (over the API, with two document photos); the demo operator logs in (password + TOTP), opens the
// KYC queue, sees the application with its fields and BOTH photos side by side (each decoded),
// and rejects it with a reason. The user's result page says rejected with that reason; the user
// applies again on the phone (good photos checked and uploaded, the form confirmed); the operator
// finds it after a refresh and approves it; the user's pages show level 1. Screenshots of the
// review screen and the user's pages go to test-results/kyc/.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserForFile, localizedPage, overflowing, settled } from './browser.ts';
import { backOfficePage, newAccount } from './money.ts';
import { applyBasicOverApi, basicFields, fillAndSubmitBasic, kycState, levelCard } from './kycHelpers.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const shots = path.resolve(import.meta.dirname, '../../test-results/kyc');
const reason = 'The back of the document is not readable: please photograph it again in daylight.';

/** Drawers and modals slide in: a screenshot waits until nothing on the page is moving (a picture only, never an assertion). */
const still = (page: Page) => page.waitForFunction(() => document.getAnimations().every((animation) =>
  animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity), undefined, { timeout: 5_000 })
  .catch(() => undefined);

/** Both photos of the open application, decoded: their natural widths (0 while not loaded) and where they sit. */
const photosShown = (page: Page) => Promise.all((['front', 'back'] as const).map(async (side) => {
  const image = page.getByTestId(`kyc-photo-${side}`);
  await image.waitFor();
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
  return { side, box: (await image.boundingBox())! };
}));

/** The user's result page, read afresh from the server. */
async function userResult(page: Page) {
  await page.goto(`${baseUrl}/#/renzhengResult`);
  await page.reload();
  await settled(page);
  await levelCard(page, 'Basic verification').waitFor();
}

describe('identity review in the back office', () => {
  let user: { email: string; token: string };
  let operator: Page;

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true });
    user = await newAccount(baseUrl, dataDir, 'kycadmin');
    await applyBasicOverApi(baseUrl, user.token);
  });

  it('shows the application with both photos side by side, and rejects it with a reason the user reads', async () => {
    operator = await backOfficePage(browser(), baseUrl);
    await operator.getByRole('menuitem', { name: 'Identity verification' }).click();
    const row = operator.getByTestId('kyc-table').locator('tr', { hasText: user.email });
    await row.waitFor();
    expect(await row.textContent()).toContain(`${basicFields.surname} ${basicFields.firstName}`);
    await row.getByRole('button', { name: 'Review' }).click();

    const drawer = operator.locator('.admin-drawer');
    const details = drawer.getByTestId('kyc-details');
    await expect.poll(() => details.textContent()).toContain(user.email);
    for (const part of ['Basic', 'Under review', basicFields.surname, basicFields.firstName, 'Passport', basicFields.idNumber]) {
      expect(await details.textContent()).toContain(part);
    }
    const [front, back] = await photosShown(operator);
    // Side by side: the back to the right of the front, on the same line, neither a thumbnail.
    expect(back.box.x).toBeGreaterThanOrEqual(front.box.x + front.box.width);
    expect(Math.abs(back.box.y - front.box.y)).toBeLessThan(4);
    for (const photo of [front, back]) expect(photo.box.width, photo.side).toBeGreaterThan(200);
    await still(operator);
    await operator.screenshot({ path: path.join(shots, 'admin-review-en-us-1280.png') });
    // At 1280×800 the photos start below the fields: the drawer scrolled to them, for a second picture.
    await drawer.getByTestId('kyc-photos').evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await operator.screenshot({ path: path.join(shots, 'admin-review-photos-en-us-1280.png') });

    await drawer.getByTestId('kyc-reject').click();
    const modal = operator.locator('.ant-modal', { hasText: 'Reject this verification' });
    await modal.getByLabel('Reason (the user reads it)').fill(reason);
    await still(operator);
    await operator.screenshot({ path: path.join(shots, 'admin-reject-en-us-1280.png') });
    await modal.getByRole('button', { name: 'Reject' }).click();
    // The decision leaves the queue and closes the drawer.
    await expect.poll(() => operator.getByTestId('kyc-table').locator('tr', { hasText: user.email }).count()).toBe(0);
    await expect.poll(() => operator.getByTestId('kyc-photo-front').count()).toBe(0);
    expect(await kycState(baseUrl, user.token)).toMatchObject({ basic: 'rejected', level: 0, basicReason: reason });

    // The user's result page says rejected, with the operator's words.
    const phone = await localizedPage(browser(), { token: user.token });
    await userResult(phone);
    const basic = levelCard(phone, 'Basic verification');
    expect(await basic.locator('.level-status').textContent()).toBe('Rejected');
    expect(await basic.locator('.level-rejected p').textContent()).toBe(`Reason: ${reason}`);
    await phone.screenshot({ path: path.join(shots, 'result-rejected-en-us-390.png'), fullPage: true });
    expect((await overflowing(phone)).problems, 'the rejected result at 390 px').toBe('');
  });

  it('takes the application again on the phone; the operator approves it and the user sees level 1', async () => {
    // The user applies again from the result page: the basic page repeats the reason, then the form.
    const phone = await localizedPage(browser(), { token: user.token });
    await userResult(phone);
    await levelCard(phone, 'Basic verification').getByRole('link', { name: 'Apply again' }).click();
    await phone.waitForURL(/#\/shenfenRenzheng$/);
    await phone.getByRole('heading', { name: 'Verification rejected' }).waitFor();
    expect(await phone.locator('.identity-state.rejected').textContent()).toContain(`Reason: ${reason}`);
    await phone.getByRole('button', { name: 'Apply again' }).click();
    await fillAndSubmitBasic(phone, { ...basicFields, idNumber: 'X1234-9999' });
    await expect.poll(() => levelCard(phone, 'Basic verification').locator('.level-status').textContent()).toBe('Under review');
    expect(await kycState(baseUrl, user.token)).toMatchObject({ basic: 'pending', level: 0 });

    // The operator refreshes the queue, finds the new application with its new photos, and approves it.
    await operator.getByRole('button', { name: 'Refresh' }).click();
    const row = operator.getByTestId('kyc-table').locator('tr', { hasText: user.email });
    await row.waitFor();
    await row.getByRole('button', { name: 'Review' }).click();
    await expect.poll(() => operator.locator('.admin-drawer').getByTestId('kyc-details').textContent()).toContain('X1234-9999');
    await photosShown(operator);
    await operator.locator('.admin-drawer').getByTestId('kyc-approve').click();
    await operator.locator('.ant-modal-confirm').getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => operator.getByTestId('kyc-table').locator('tr', { hasText: user.email }).count()).toBe(0);
    expect(await kycState(baseUrl, user.token)).toMatchObject({ basic: 'approved', level: 1 });

    // Both decisions are on the record: the approved tab has the new one, the rejected tab the reason.
    await operator.getByRole('tab', { name: 'Rejected' }).click();
    await expect.poll(() => operator.getByTestId('kyc-table').locator('tr', { hasText: user.email }).textContent()).toContain(reason);

    await userResult(phone);
    await expect.poll(() => phone.getByTestId('kyc-level').textContent()).toBe('Your verification level: 1');
    expect(await levelCard(phone, 'Basic verification').locator('.level-status-line').textContent()).toBe('Approved');
    await phone.screenshot({ path: path.join(shots, 'result-approved-after-retry-en-us-390.png'), fullPage: true });
    expect((await overflowing(phone)).problems, 'the approved result at 390 px').toBe('');
  });
});
