// What the identity-verification journeys share (kyc.test.ts on the phone, kycAdmin.test.ts in the
// back office): synthetic document photos (test/web/documentPhoto.ts) encoded as PNG — a good one
// and the three the phone must refuse — the basic form filled and confirmed the way a user does
// it, an identity upload and a basic application over the API (multipart, purpose "identity",
// as the app sends them), and the state the server answers to the user.
import type { Page } from 'playwright-core';
import { documentPhoto, pngBytes } from '../web/documentPhoto.ts';
import { SpecClient, type Answer } from '../conformance/specClient.ts';
import type { KycState } from '../../src/api/contract/identity.ts';

/** PNG files a user picks from the gallery: a sharp, evenly lit card with its four edges inside, and three that are not. */
export const photos = {
  front: pngBytes(documentPhoto()),
  back: pngBytes(documentPhoto({ shiftX: 40, shiftY: 20, card: 214 })),
  blurry: pngBytes(documentPhoto({ blur: 4 })),
  dark: pngBytes(documentPhoto({ gain: 0.28 })),
  cutOff: pngBytes(documentPhoto({ shiftX: 200 })),
};

export function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200 && answer.envelope?.code !== 0) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}

/** The user's verification state as the server answers it (isHaveAuth). */
export const kycState = async (baseUrl: string, token: string) =>
  result(await new SpecClient(baseUrl).get<KycState>('/auth/appAuth/isHaveAuth', {}, token), 'isHaveAuth');

/** Uploads an identity photo as the user (multipart, purpose identity) and returns its id. */
export async function uploadIdentityPhoto(baseUrl: string, token: string, bytes: Buffer): Promise<string> {
  return result(await new SpecClient(baseUrl).upload(token, bytes, 'identity', 'image/png', 'document.png'), 'identity upload').id;
}

export const basicFields = { surname: 'Lovelace', firstName: 'Ada', idType: 'passport', idNumber: 'X1234-5678' } as const;

/**
 * A basic application with both photos, sent over the API; returns the application's id. `fields`
 * replace the default ones (another document number: accounts verified with one document are one
 * person, and an IEO takes one application per person).
 */
export async function applyBasicOverApi(baseUrl: string, token: string, fields: Partial<Record<keyof typeof basicFields, string>> = {}): Promise<string> {
  const frontFileId = await uploadIdentityPhoto(baseUrl, token, photos.front);
  const backFileId = await uploadIdentityPhoto(baseUrl, token, photos.back);
  return result(await new SpecClient(baseUrl).post<{ id: string }>('/auth/appAuth/applyKYC',
    { ...basicFields, ...fields, frontFileId, backFileId }, token), 'applyKYC').id;
}

/** The form control of one side of the document on the basic verification page. */
export const photoField = (page: Page, side: 'Front' | 'Back') => page.getByRole('group', { name: `${side} of the document`, exact: true });

/** Picks a file from the gallery for one side (the input the "Gallery" button opens). */
export const pickPhoto = (page: Page, side: 'Front' | 'Back', name: string, buffer: Buffer) =>
  page.getByLabel(`Choose a photo: ${side} of the document`, { exact: true }).setInputFiles({ name, mimeType: 'image/png', buffer });

/** The text field (input or textarea) of a form item whose label is `label` (antd-mobile's items are not <label for>). */
export const formInput = (page: Page, label: string) =>
  page.locator('.adm-form-item').filter({ has: page.locator('.adm-form-item-label', { hasText: new RegExp(`^${label}$`) }) })
    .locator('input, textarea').first();

/**
 * On the basic verification form (in English): both good photos picked and uploaded (checked on
 * the phone first), the name and the passport's number typed, Submit, and the confirmation's
 * summary accepted. Resolves when the result page opens.
 */
export async function fillAndSubmitBasic(page: Page, fields: { surname: string; firstName: string; idNumber: string } = basicFields) {
  await pickPhoto(page, 'Front', 'front.png', photos.front);
  await photoField(page, 'Front').getByText('Photo checked and uploaded.').waitFor();
  await pickPhoto(page, 'Back', 'back.png', photos.back);
  await photoField(page, 'Back').getByText('Photo checked and uploaded.').waitFor();
  await formInput(page, 'Surname').fill(fields.surname);
  await formInput(page, 'First name').fill(fields.firstName);
  await page.locator('.adm-selector-item', { hasText: 'Passport' }).click();
  await formInput(page, 'ID number').fill(fields.idNumber);
  await page.locator('.identity-form').getByRole('button', { name: 'Submit' }).click();
  const dialog = page.locator('.adm-dialog');
  await dialog.getByText('Submit for verification?').waitFor();
  const summary = await dialog.locator('.identity-summary').innerText();
  for (const part of [fields.surname, fields.firstName, 'Passport', fields.idNumber]) {
    if (!summary.includes(part)) throw new Error(`the confirmation does not show "${part}": ${summary}`);
  }
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(/#\/renzhengResult$/);
}

/** The card of one level on the result page, and the status it shows. */
export const levelCard = (page: Page, name: 'Unverified' | 'Basic verification' | 'Advanced verification') =>
  page.locator('.level-card').filter({ has: page.getByRole('heading', { name, exact: true }) });
