// The camera path of identity verification, in Chromium with a camera of its own: Chromium's fake
// capture device plays a Y4M video written here from the same synthetic document photos the
// gallery journey picks (test/web/documentPhoto.ts). The user opens the camera view for the front
// of the document, sees the live picture inside the card-shaped frame, takes the photo; the frame
// is checked on the phone like a picked file. A camera showing a sharp, evenly lit card uploads
// it; a camera out of focus is refused with its reason and offers to retake, uploading nothing.
// Each camera is a browser of its own (the video file is a launch flag). Screenshots go to
// test-results/kyc/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Pixels } from '../../src/features/identity/photoChecks.ts';
import { documentPhoto } from '../web/documentPhoto.ts';
import { launchBrowser, localizedPage, settled } from './browser.ts';
import { newAccount } from './money.ts';
import { photoField } from './kycHelpers.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const shots = path.resolve(import.meta.dirname, '../../test-results/kyc');
const videoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-camera-'));
/**
 * A phone's back camera held upright gives a portrait picture. This one, on a 390 × 844 screen
 * (the video fills it, cut at the sides), shows the card inside the on-screen frame, as a user
 * holds it.
 */
const upright = { width: 540, height: 1000, shiftY: -80 };

/**
 * One frame of a grey picture as a Y4M video (4:2:0): the luma plane is the grey level and both
 * chroma planes are neutral. Chromium's fake camera plays it in a loop.
 */
function y4mVideo(image: Pixels, name: string): string {
  const { width, height, data } = image;
  const luma = Buffer.alloc(width * height);
  for (let at = 0; at < luma.length; at += 1) luma[at] = data[at * 4];
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const file = path.join(videoDir, name);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\nFRAME\n`), luma, chroma, chroma]));
  return file;
}

const browsers: Browser[] = [];

/** A Chromium whose only camera shows `video`, with the permission prompt answered yes. */
async function browserWithCamera(video: string): Promise<Browser> {
  const browser = await launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${video}`]);
  browsers.push(browser);
  return browser;
}

/** Opens the basic verification form logged in, and the camera view for the front of the document. */
async function openCamera(browser: Browser, token: string): Promise<Page> {
  const page = await localizedPage(browser, { token });
  await page.context().grantPermissions(['camera'], { origin: baseUrl });
  await page.goto(`${baseUrl}/#/shenfenRenzheng`);
  await settled(page);
  await photoField(page, 'Front').getByRole('button', { name: 'Camera' }).click();
  const view = page.getByRole('dialog');
  await view.waitFor();
  // The live picture plays, and the shutter is enabled once it does.
  await expect.poll(() => view.locator('video').evaluate((video: HTMLVideoElement) => video.videoWidth)).toBe(upright.width);
  await expect.poll(() => view.getByRole('button', { name: 'Take the photo' }).isEnabled()).toBe(true);
  return page;
}

describe('identity verification with the camera', () => {
  let token: string;

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true });
    ({ token } = await newAccount(baseUrl, dataDir, 'kyc-camera'));
  });

  afterAll(async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
    fs.rmSync(videoDir, { recursive: true, force: true });
  });

  it('takes a sharp photo of the document in the frame, checks it on the phone and uploads it', async () => {
    const page = await openCamera(await browserWithCamera(y4mVideo(documentPhoto(upright), 'sharp.y4m')), token);
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/sys/common/upload')) uploads.push(request.method());
    });
    expect(await page.getByRole('dialog').getByRole('status').textContent())
      .toBe('Fit all four edges of the document inside the frame, in good light, and hold still.');
    await page.screenshot({ path: path.join(shots, 'camera-view-en-us-390.png') });

    await page.getByRole('button', { name: 'Take the photo' }).click();
    const front = photoField(page, 'Front');
    await front.getByText('Photo checked and uploaded.').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(uploads).toEqual(['POST']);
    // The preview shows the captured frame (a JPEG the camera view made).
    expect(await front.getByRole('img', { name: 'Preview: Front of the document' }).evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(upright.width);
    await page.screenshot({ path: path.join(shots, 'camera-uploaded-en-us-390.png'), fullPage: true });
  });

  it('refuses a photo from a camera out of focus with its reason, uploads nothing, and offers to retake', async () => {
    const page = await openCamera(await browserWithCamera(y4mVideo(documentPhoto({ ...upright, blur: 4 }), 'blurry.y4m')), token);
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/sys/common/upload')) uploads.push(request.method());
    });
    await page.getByRole('button', { name: 'Take the photo' }).click();
    const front = photoField(page, 'Front');
    const said = front.locator('[data-reason="blurry"]');
    await said.waitFor();
    expect(await said.textContent()).toBe('The photo is blurry — hold the phone still and let the camera focus.');
    expect(await front.locator('[data-reason]').count()).toBe(1);
    expect(await front.getByRole('button', { name: 'Retake with the camera' }).isVisible()).toBe(true);
    expect(uploads).toEqual([]);
    await said.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: path.join(shots, 'camera-refused-blurry-en-us-390.png') });
  });
});
