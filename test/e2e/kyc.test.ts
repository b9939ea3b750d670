// Identity verification on a 390 px phone in Chromium against the real server (issue 11). A new
// account opens basic verification (/#/shenfenRenzheng) and picks, from the gallery, a blurry, a
// dark and a cut-off photo of its document in turn: each is refused on the phone with its own
// reason, and not one byte is uploaded. Then good front and back photos upload, the name and
// passport number are typed and confirmed, and the result page says the basic level is under
// review. The demo operator approves it over the back-office API; the result page and the
// personal page then show level 1, and advanced verification (/#/shenfenRenzhengAd) is submitted
// and under review. Each page fits the 390 px screen. Screenshots go to test-results/kyc/.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SpecClient } from '../conformance/specClient.ts';
import type { PageOf } from '../../src/api/contract/wallet.ts';
import type { AdminKycApplication } from '../../src/api/contract/identity.ts';
import { browserForFile, localizedPage, overflowing, settled } from './browser.ts';
import { newAccount, operatorSession } from './money.ts';
import {
  basicFields, fillAndSubmitBasic, formInput, kycState, levelCard, photoField, photos, pickPhoto, result,
} from './kycHelpers.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const shots = path.resolve(import.meta.dirname, '../../test-results/kyc');

/** Opens a route of the app afresh (a reload, so the verification state is read from the server again). */
async function open(page: Page, route: string) {
  await page.goto(`${baseUrl}/#${route}`);
  await page.reload();
  await settled(page);
}

const fits = async (page: Page, where: string) => expect((await overflowing(page)).problems, `${where} at 390 px`).toBe('');

describe('identity verification on the phone', () => {
  let account: { email: string; token: string };
  const client = new SpecClient(baseUrl);

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true });
    account = await newAccount(baseUrl, dataDir, 'kyc');
  });

  it('refuses a blurry, a dark and a cut-off photo on the phone, uploads nothing of them, then sends good ones for review', async () => {
    const page = await localizedPage(browser(), { token: account.token });
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/sys/common/upload')) uploads.push(request.method());
    });
    await open(page, '/shenfenRenzheng');
    await photoField(page, 'Front').waitFor();
    await fits(page, 'the basic form');

    const front = photoField(page, 'Front');
    const refusals = [
      { file: 'blurry.png', bytes: photos.blurry, reason: 'blurry', text: 'The photo is blurry — hold the phone still and let the camera focus.' },
      { file: 'dark.png', bytes: photos.dark, reason: 'dark', text: 'The photo is too dark — take it in more light.' },
      { file: 'cut-off.png', bytes: photos.cutOff, reason: 'cut_off', text: "The document's border is not complete — fit all four edges inside the frame." },
    ];
    for (const { file, bytes, reason, text } of refusals) {
      await pickPhoto(page, 'Front', file, bytes);
      const said = front.locator(`[data-reason="${reason}"]`);
      await said.waitFor();
      expect(await said.textContent()).toBe(text);
      // Its own reason only, under the words that say this photo cannot be used, beside its preview.
      expect(await front.locator('[data-reason]').count()).toBe(1);
      expect(await front.getByRole('alert').locator('p').textContent()).toBe('This photo cannot be used:');
      expect(await front.locator('.document-preview.refused img').isVisible()).toBe(true);
      // In the middle of the screen for the picture: the tab bar is fixed over the bottom of the page.
      await said.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path: path.join(shots, `refused-${reason}-en-us-390.png`) });
      await fits(page, `the ${reason} refusal`);
    }
    expect(uploads).toEqual([]);
    expect(await front.getByText('Photo checked and uploaded.').count()).toBe(0);

    // Good photos: checked, made small and uploaded (one request each); then the form is confirmed.
    await fillAndSubmitBasic(page);
    expect(uploads).toEqual(['POST', 'POST']);
    await levelCard(page, 'Basic verification').waitFor();
    await expect.poll(() => levelCard(page, 'Basic verification').locator('.level-status').textContent()).toBe('Under review');
    expect(await page.getByTestId('kyc-level').textContent()).toBe('Your verification level: 0');
    await page.screenshot({ path: path.join(shots, 'result-under-review-en-us-390.png'), fullPage: true });
    await fits(page, 'the result page under review');
    expect(await kycState(baseUrl, account.token)).toMatchObject({ basic: 'pending', advanced: 'none', level: 0 });

    // The basic page now says it is under review, not the form again.
    await open(page, '/shenfenRenzheng');
    await page.getByRole('heading', { name: 'Under review' }).waitFor();
    expect(await page.locator('.identity-form').count()).toBe(0);
  });

  it('shows level 1 once the operator approves, and takes advanced verification', async () => {
    // The operator approves the application the user sent, over the back-office API.
    const operator = await operatorSession(baseUrl);
    const queue = result(await client.get<PageOf<AdminKycApplication>>('/admin/kyc', { status: 'pending', level: 1, pageSize: 100 }, operator), 'queue');
    const application = queue.records.find((record) => record.account === account.email);
    expect(application?.details).toMatchObject({ surname: basicFields.surname, firstName: basicFields.firstName, idType: 'passport', idNumber: basicFields.idNumber });
    expect([application?.hasFront, application?.hasBack]).toEqual([true, true]);
    result(await client.post(`/admin/kyc/${application!.id}/approve`, {}, operator), 'approve');

    const page = await localizedPage(browser(), { token: account.token });
    await open(page, '/renzhengResult');
    await expect.poll(() => page.getByTestId('kyc-level').textContent()).toBe('Your verification level: 1');
    const basic = levelCard(page, 'Basic verification');
    expect(await basic.getAttribute('aria-current')).toBe('true');
    expect(await basic.locator('.level-status').textContent()).toBe('Your level');
    expect(await basic.locator('.level-status-line').textContent()).toBe('Approved');
    // Advanced is open to apply for now that basic is approved.
    expect(await levelCard(page, 'Advanced verification').getByRole('link', { name: 'Apply now' }).count()).toBe(1);
    await page.screenshot({ path: path.join(shots, 'result-approved-en-us-390.png'), fullPage: true });
    await fits(page, 'the result page approved');

    // The personal page says level 1 of 2, and its verification row the level.
    await open(page, '/my');
    const prompt = page.getByTestId('my-kyc');
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain('Verification level 1 of 2.');
    expect(await page.locator('.adm-list-item', { hasText: 'Identity verification' }).textContent()).toContain('Level 1');
    await page.screenshot({ path: path.join(shots, 'my-level-1-en-us-390.png'), fullPage: true });
    await fits(page, 'the personal page');

    // The basic page shows the approval and leads to advanced verification.
    await open(page, '/shenfenRenzheng');
    await page.getByRole('heading', { name: 'Basic verification approved' }).waitFor();
    await page.getByRole('link', { name: 'Continue with advanced verification' }).click();
    await page.waitForURL(/#\/shenfenRenzhengAd$/);
    await formInput(page, 'Current address').waitFor();
    await fits(page, 'the advanced form');
    const advanced = {
      'Current address': '12 Rue de Rivoli, Paris', "Contact's surname": 'Byron', "Contact's first name": 'Anne',
      Relationship: 'mother', "Contact's phone": '+33 1 23 45 67 89', "Contact's address": '3 Piccadilly, London',
    };
    for (const [label, value] of Object.entries(advanced)) await formInput(page, label).fill(value);
    await page.screenshot({ path: path.join(shots, 'advanced-form-en-us-390.png'), fullPage: true });
    await page.locator('.identity-form').getByRole('button', { name: 'Submit' }).click();
    const dialog = page.locator('.adm-dialog');
    await dialog.getByText('Submit for verification?').waitFor();
    const summary = await dialog.locator('.identity-summary').innerText();
    for (const part of ['12 Rue de Rivoli, Paris', 'Byron Anne (mother)', '+33 1 23 45 67 89']) expect(summary).toContain(part);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/#\/renzhengResult$/);
    await expect.poll(() => levelCard(page, 'Advanced verification').locator('.level-status').textContent()).toBe('Under review');
    await fits(page, 'the result page with advanced under review');
    expect(await kycState(baseUrl, account.token)).toMatchObject({ basic: 'approved', advanced: 'pending', level: 1 });

    // What the operator reads is what the user typed.
    const operatorQueue = result(await client.get<PageOf<AdminKycApplication>>('/admin/kyc', { status: 'pending', level: 2, pageSize: 100 }, operator), 'queue');
    expect(operatorQueue.records.find((record) => record.account === account.email)?.details).toMatchObject({
      currentAddress: '12 Rue de Rivoli, Paris', emergencySurname: 'Byron', emergencyName: 'Anne', emergencyRelationship: 'mother',
      emergencyPhone: '+33 1 23 45 67 89', emergencyAddress: '3 Piccadilly, London',
    });
  });
});
