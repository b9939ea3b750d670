// Writing a notice in the real back office (/admin.html at 1280 px) against the real server
// (issue 21). The demo operator opens Notices and content, starts a new notice, types its text in
// the rich-text editor, makes a word bold with the toolbar, uploads an image into the text (a real
// PNG, re-encoded by the server), sees both in the phone preview, and publishes. The notice is then
// in the public notice list, and its body as anyone reads it keeps the bold word and the image,
// which is served; its Chinese text is read in Chinese and a language left empty falls back to
// English. A javascript: link is refused in the editor. Screenshots go to
// test-results/content-admin/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiPrefix } from '../../src/api/contract/paths.ts';
import { contentPaths } from '../../src/api/contract/content.ts';
import { browserForFile } from './browser.ts';
import { backOfficePage } from './money.ts';
import { documentPhoto, pngBytes } from '../web/documentPhoto.ts';

const baseUrl = inject('baseUrl');
const browser = browserForFile();
const shots = path.resolve(import.meta.dirname, '../../test-results/content-admin');
const title = `Trading hours change ${Date.now().toString(36)}`;

/** Drawers slide in: a screenshot waits until nothing on the page is moving (a picture only, never an assertion). */
const still = (page: Page) => page.waitForFunction(() => document.getAnimations().every((animation) =>
  animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity), undefined, { timeout: 5_000 })
  .catch(() => undefined);

async function publicGet<T>(pathAndQuery: string): Promise<T> {
  const response = await fetch(`${baseUrl}${apiPrefix}${pathAndQuery}`);
  const envelope = await response.json() as { code: number; result: T; message: string };
  expect(envelope.code, envelope.message).toBe(200);
  return envelope.result;
}

describe('content in the back office', () => {
  it('writes a notice with a bold word and an image, publishes it, and anyone reads it through the public API', async () => {
    fs.mkdirSync(shots, { recursive: true });
    const page = await backOfficePage(browser(), baseUrl);
    await page.getByRole('menuitem', { name: 'Notices and content' }).click();
    await page.getByRole('button', { name: 'New notice' }).click();
    const drawer = page.locator('.content-drawer');
    await drawer.getByLabel('Title').fill(title);

    // Typed text; "nine" selected with the keyboard and made bold with the toolbar.
    const area = drawer.getByRole('textbox', { name: 'Body' });
    await area.click();
    await page.keyboard.type('Markets open at nine');
    for (let step = 0; step < 4; step += 1) await page.keyboard.press('Shift+ArrowLeft');
    await drawer.getByRole('button', { name: 'Bold' }).click();
    await expect.poll(() => area.evaluate((element) => element.innerHTML)).toContain('<strong>nine</strong>');

    // A refused link: javascript: never becomes a link.
    await drawer.getByRole('button', { name: 'Link', exact: true }).click();
    const linkDialog = page.getByRole('dialog', { name: 'Link', exact: true });
    await linkDialog.getByLabel('Link address').fill('javascript:alert(document.cookie)');
    await linkDialog.getByRole('button', { name: 'Apply' }).click();
    await linkDialog.getByText('Only http and https links are allowed (https://…).').waitFor();
    await linkDialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await area.locator('a').count()).toBe(0);

    // An image in a paragraph of its own after the text, uploaded and shown in the editor and the preview.
    await area.click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await drawer.getByTestId('content-body-en-us-file').setInputFiles({ name: 'hours.png', mimeType: 'image/png', buffer: pngBytes(documentPhoto()) });
    const editorImage = area.locator('img');
    await editorImage.waitFor();
    expect(await editorImage.getAttribute('src')).toMatch(/^\/api\/public\/content\/image\/[0-9a-f]{32}$/);
    const preview = drawer.getByTestId('content-preview');
    await expect.poll(() => preview.locator('img').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
    expect(await preview.getByText('nine', { exact: true }).evaluate((element) => element.tagName)).toBe('STRONG');
    expect(await preview.getByTestId('preview-title').textContent()).toBe(title);
    const frame = (await preview.locator('.content-phone').boundingBox())!;
    expect([Math.round(frame.width), Math.round(frame.height)]).toEqual([390, 844]);
    await still(page);
    await page.screenshot({ path: path.join(shots, 'notice-draft-en-us-1280.png') });

    // A Chinese text beside the English one; a language left empty falls back to English.
    await drawer.getByRole('tab', { name: '简体中文' }).click();
    await drawer.getByTestId('content-title-zh-cn').fill(`交易时间调整 ${title.slice(-8)}`);
    await drawer.getByTestId('content-body-zh-cn-area').click();
    await page.keyboard.type('市场九点开盘');
    await expect.poll(() => preview.getByTestId('preview-title').textContent()).toBe(`交易时间调整 ${title.slice(-8)}`);
    await drawer.getByRole('tab', { name: 'English' }).click();

    await drawer.getByTestId('content-save').click();
    await preview.getByText('Saved version, as the server stored it.').waitFor();
    await drawer.getByText('Live').waitFor();
    await page.screenshot({ path: path.join(shots, 'notice-saved-en-us-1280.png') });

    // Anyone reads it: in the public notice list, and whole by id with the bold word and the image.
    const list = await publicGet<{ records: Array<{ id: string; title: string; bodyHtml?: string }> }>(`${contentPaths.notices}?pageNo=1&pageSize=50`);
    const listed = list.records.find((record) => record.title === title);
    expect(listed, 'the notice in the public list').toBeTruthy();
    const notice = await publicGet<{ title: string; bodyHtml: string; lang: string }>(`${contentPaths.articleById}?id=${listed!.id}`);
    expect(notice.lang).toBe('en-us');
    expect(notice.bodyHtml).toContain('<strong>nine</strong>');
    const src = /<img [^>]*src="([^"]+)"/.exec(notice.bodyHtml)?.[1];
    expect(src).toMatch(/^\/api\/public\/content\/image\/[0-9a-f]{32}$/);
    expect(notice.bodyHtml).not.toContain('javascript:');
    const chinese = await publicGet<{ title: string; bodyHtml: string; lang: string }>(`${contentPaths.articleById}?id=${listed!.id}&lang=zh-cn`);
    expect(chinese).toMatchObject({ lang: 'zh-cn', title: `交易时间调整 ${title.slice(-8)}` });
    expect(chinese.bodyHtml).toContain('市场九点开盘');
    const korean = await publicGet<{ title: string; lang: string }>(`${contentPaths.articleById}?id=${listed!.id}&lang=ko`);
    expect(korean).toMatchObject({ lang: 'en-us', title });
    const image = await fetch(`${baseUrl}${src}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);

    // The list in the back office shows it live, in English.
    await page.locator('.content-drawer .ant-drawer-close').click();
    const row = page.getByTestId('content-table-notice').locator('tr', { hasText: title });
    await row.waitFor();
    expect(await row.textContent()).toContain('en-us');
    expect(await row.textContent()).toContain('Live');

    // The other kinds' forms: an announcement's audience and pop-up, and the maintenance screen (read only here:
    // the journeys share one server, and maintenance mode would reach every other phone page).
    await page.getByRole('tab', { name: 'Announcements' }).click();
    await page.getByRole('button', { name: 'New announcement' }).click();
    await page.locator('.content-drawer').getByText('These users').click();
    await page.locator('.content-drawer').getByTestId('content-user-ids').fill('12\n15');
    await still(page);
    await page.screenshot({ path: path.join(shots, 'announcement-new-en-us-1280.png') });
    await page.locator('.content-drawer .ant-drawer-close').click();
    await page.getByRole('menuitem', { name: 'Maintenance' }).click();
    await page.getByTestId('maintenance-status').waitFor();
    await still(page);
    await page.screenshot({ path: path.join(shots, 'maintenance-en-us-1280.png'), fullPage: true });
    await page.context().close();
  });
});
