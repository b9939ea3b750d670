// Live chat between a phone and the back office (issue 21), both in Chromium against the real
// server. The operator opens the Live chat screen (which puts them on duty); the user opens the
// chat from the home shortcut and writes; the message reaches the operator's queue live; the
// operator's reply reaches the phone live with the user's message marked read; after a reload the
// phone shows the history; a message written while the phone is offline waits in the outbox and
// is sent when the network returns, once, and reaches the operator; a photo reaches both sides. Elements are found by test id
// and state attributes: the texts are the catalogs' (a new text shows its id until they are extracted).
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserForFile, localizedPage, settled } from './browser.ts';
import { backOfficePage, newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();

const phoneMessages = (phone: Page) => phone.getByTestId('chat-message');
const adminMessages = (operator: Page) => operator.getByTestId('chat-admin-log').getByTestId('chat-admin-message');

describe('live chat', () => {
  it('carries messages both ways live, keeps history over a reload, and sends what was written offline when back online', async () => {
    const user = await newAccount(baseUrl, dataDir, 'chat');
    const operator = await backOfficePage(browser(), baseUrl);
    await operator.evaluate(() => { window.location.hash = '#/chat'; });
    await operator.getByTestId('chat-queue').waitFor();

    const phone = await localizedPage(browser(), { token: user.token });
    await phone.goto(`${baseUrl}/#/chat`);
    await settled(phone);
    const input = phone.getByTestId('chat-input');
    await input.waitFor();
    await phone.getByTestId('chat-empty').waitFor();

    await input.fill('Hello from the phone <b>not bold</b>');
    await phone.getByTestId('chat-send').click();
    const first = phoneMessages(phone).filter({ hasText: 'Hello from the phone <b>not bold</b>' });
    await phone.locator('[data-testid="chat-message"][data-mark="delivered"]', { hasText: 'Hello from the phone' }).waitFor();
    // Shown as text: the markup is not interpreted.
    expect(await first.locator('b').count()).toBe(0);

    // Live in the operator's queue; opening it shows the message and the user's context.
    const item = operator.getByTestId('chat-queue-item').filter({ hasText: `${user.email.slice(0, 1)}***@example.test` }).filter({ hasText: 'Hello from the phone' });
    await item.waitFor();
    await item.click();
    await adminMessages(operator).filter({ hasText: 'Hello from the phone' }).waitFor();
    await expect.poll(() => operator.getByTestId('chat-context').textContent()).toContain(`${user.email.slice(0, 1)}***@example.test`);
    expect(await operator.getByTestId('chat-context').textContent()).not.toContain(user.email);

    await operator.getByTestId('chat-reply-input').fill('Hello, this is support.');
    await operator.getByTestId('chat-reply-send').click();
    await phoneMessages(phone).filter({ hasText: 'Hello, this is support.' }).waitFor();
    // The operator read the user's message (opening the conversation, then replying).
    await phone.locator('[data-testid="chat-message"][data-mark="read"]', { hasText: 'Hello from the phone' }).waitFor();

    // History survives a reload.
    await phone.reload();
    await phoneMessages(phone).filter({ hasText: 'Hello, this is support.' }).waitFor();
    expect(await phoneMessages(phone).filter({ hasText: 'Hello from the phone' }).count()).toBe(1);

    // Written offline: waits in the outbox, then goes when the network returns.
    await phone.context().setOffline(true);
    await phone.getByTestId('chat-input').fill('Written while offline');
    await phone.getByTestId('chat-send').click();
    await phone.locator('[data-testid="chat-outbox"][data-state="pending"]', { hasText: 'Written while offline' }).waitFor();
    expect(await adminMessages(operator).filter({ hasText: 'Written while offline' }).count()).toBe(0);
    await phone.context().setOffline(false);
    await phone.locator('[data-testid="chat-message"][data-mark]', { hasText: 'Written while offline' }).waitFor();
    await expect.poll(() => phone.getByTestId('chat-outbox').count()).toBe(0);
    await adminMessages(operator).filter({ hasText: 'Written while offline' }).waitFor();
    // Sent once: one stored message with that text.
    expect(await phoneMessages(phone).filter({ hasText: 'Written while offline' }).count()).toBe(1);
    expect(await adminMessages(operator).filter({ hasText: 'Written while offline' }).count()).toBe(1);

    // A photo: picked, previewed, uploaded and sent; shown on both sides.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    await phone.getByTestId('chat-photo-pick').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: png });
    await phone.getByTestId('chat-photo-send').click();
    const phoneImage = phone.getByTestId('chat-image');
    await phoneImage.waitFor();
    await expect.poll(() => phoneImage.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
    const adminImage = operator.getByTestId('chat-admin-image');
    await adminImage.waitFor();
    await expect.poll(() => adminImage.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
    await operator.context().close();
  });
});
