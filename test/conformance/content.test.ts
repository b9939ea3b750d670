// Conformance: a spec-only client reads notices, announcements, internal messages, help and news
// and the status check (spec §7 paths where the spec names them, ours from the issue), and the
// demo operator writes a notice, an announcement and an image and sets maintenance mode through
// our /api/admin calls. Paths and field names were read (not imported) from
// src/api/contract/content.ts.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, tokenOf, type Answer } from './specClient.ts';
import { describeAnswer, expectSuccess } from './expectAnswer.ts';
import { demoOperatorToken } from './adminClient.ts';

interface Item {
  id: string; kind: string; title: string; summary: string; bodyHtml?: string; lang: string; category?: string;
  coverUrl?: string; popup: boolean; publishAt: number; readAt?: number;
}
interface Page<T> { records: T[]; total: number; size: number; current: number; pages: number }

const tinyPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let server: RunningServer;
let client: SpecClient;
let operator: string;
let token: string;
const email = `conf-content-${crypto.randomBytes(5).toString('hex')}@example.test`;

function expectError(answer: Answer, status: number, error: string) {
  expect({ status: answer.status, error: errorOf(answer) }, describeAnswer(answer)).toEqual({ status, error });
}

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
  const code = await readCode(server.dataDir, email, 'email');
  token = tokenOf(await client.register({ accountType: 'email', account: email, password: 'Content2026conf', code }))!;
  expect(token).toEqual(expect.any(String));
  operator = await demoOperatorToken(client);
});

afterAll(async () => {
  await server?.stop();
});

describe('content calls', () => {
  it('GET /api/public/status answers maintenance off and the server time', async () => {
    const status = expectSuccess(await client.get<{ maintenance: boolean; serverTime: number }>('/public/status'));
    expect(status.maintenance).toBe(false);
    expect(Math.abs(status.serverTime - Date.now())).toBeLessThan(60_000);
  });

  it('POST /api/admin/content/notices publishes a notice: home, the list and the detail show it, cleaned', async () => {
    const title = `Conformance notice ${crypto.randomBytes(3).toString('hex')}`;
    const created = expectSuccess(await client.post<{ id: string; status: string }>('/admin/content/notices', {
      title, body: '<p onclick="x()">Markets open <b>early</b><script>alert(1)</script></p><a href="javascript:alert(2)">link</a>',
    }, operator));
    expect(created.status).toBe('live');
    const home = expectSuccess(await client.get<Item[]>('/sys/annountCement/vue3List'));
    expect(home[0]).toMatchObject({ id: created.id, title, kind: 'notice', lang: 'en-us' });
    const list = expectSuccess(await client.get<Page<Item>>('/content/appNotice/list', { pageNo: 1, pageSize: 10 }));
    expect(list.records.map((item) => item.id)).toContain(created.id);
    const detail = expectSuccess(await client.get<Item>('/content/appArticle/queryById', { id: created.id, lang: 'ko' }));
    expect(detail.lang).toBe('en-us');
    expect(detail.bodyHtml).toContain('<b>early</b>');
    expect(detail.bodyHtml).not.toMatch(/script|onclick|javascript:/i);
    const notice = expectSuccess(await client.get<Item>('/content/appNotice/queryById', { id: created.id, lang: 'ko' }));
    expect(notice).toMatchObject({ id: created.id, kind: 'notice', title, lang: 'en-us', bodyHtml: detail.bodyHtml });
    expectError(await client.post('/admin/content/notices', { title: 'x', body: '<p>x</p>', lang: 'tlh' }, operator), 400, 'invalid_request');
    expectError(await client.post('/admin/content/notices', { title: 'x', body: '<p>x</p>' }, token), 401, 'unauthorized');
  });

  it('GET /content/appHelpInfo/list searches the help centre and queryById opens one', async () => {
    const help = expectSuccess(await client.get<Page<Item>>('/content/appHelpInfo/list', { q: 'deposit', pageSize: 50 }));
    expect(help.records.length).toBeGreaterThan(0);
    expect(help.records.every((item) => item.kind === 'help')).toBe(true);
    const one = expectSuccess(await client.get<Item>('/content/appHelpInfo/queryById', { id: help.records[0].id, lang: 'zh-cn' }));
    expect(one.bodyHtml).toEqual(expect.any(String));
    const news = expectSuccess(await client.get<Page<Item>>('/content/appArticle/list'));
    expect(news.records.every((item) => item.kind === 'article')).toBe(true);
  });

  it('announcements for the caller with read state, unread counts, and read marks', async () => {
    const created = expectSuccess(await client.post<{ id: string }>('/admin/content/items', {
      kind: 'announcement', popup: true, push: false,
      translations: [{ lang: 'en-us', title: 'Conformance announcement', body: '<p>For everyone.</p>' }],
    }, operator));
    expectError(await client.get('/sys/annountCement/listByUser'), 401, 'unauthorized');
    const mine = expectSuccess(await client.get<Page<Item>>('/sys/annountCement/listByUser', {}, token));
    const announcement = mine.records.find((item) => item.id === created.id)!;
    expect(announcement).toMatchObject({ popup: true });
    expect(announcement.readAt).toBeUndefined();
    const before = expectSuccess(await client.get<{ messages: number; announcements: number }>('/content/appNotice/unread', {}, token));
    const after = expectSuccess(await client.post<{ announcements: number }>('/sys/annountCement/read', { id: created.id }, token));
    expect(after.announcements).toBe(before.announcements - 1);
    const readers = expectSuccess(await client.get<Page<{ account: string }>>(`/admin/content/items/${created.id}/readers`, {}, operator));
    expect(readers.records.map((reader) => reader.account)).toEqual([email]);
  });

  it('GET /content/appNotice/queryById opens an announcement only to its audience', async () => {
    const forVerified = expectSuccess(await client.post<{ id: string }>('/admin/content/items', {
      kind: 'announcement', push: false, audience: { kind: 'kyc', min: 1 },
      translations: [{ lang: 'en-us', title: 'For verified users', body: '<p>Verified only.</p>' }],
    }, operator));
    const forAll = expectSuccess(await client.post<{ id: string }>('/admin/content/items', {
      kind: 'announcement', push: false,
      translations: [{ lang: 'en-us', title: 'For everyone', body: '<p>Everyone.</p>' }],
    }, operator));
    expect(expectSuccess(await client.get<Item>('/content/appNotice/queryById', { id: forAll.id }, token)))
      .toMatchObject({ id: forAll.id, kind: 'announcement', bodyHtml: '<p>Everyone.</p>' });
    // The caller has not verified their identity: the announcement answers as a missing one.
    expectError(await client.get('/content/appNotice/queryById', { id: forVerified.id }, token), 404, 'not_found');
    expectError(await client.get('/content/appNotice/queryById', { id: forVerified.id }), 404, 'not_found');
    expectError(await client.get('/content/appNotice/queryById', { id: '999999999' }), 404, 'not_found');
  });

  it('internal messages: myList with the unread count; read one of another user is not found; read all', async () => {
    const page = expectSuccess(await client.get<Page<unknown> & { unread: number }>('/content/appNotice/myList', {}, token));
    expect(page).toMatchObject({ records: [], unread: 0, total: 0 });
    expectError(await client.post('/content/appNotice/read', { id: '999999999' }, token), 404, 'not_found');
    const counts = expectSuccess(await client.post<{ messages: number }>('/content/appNotice/read', { all: true }, token));
    expect(counts.messages).toBe(0);
  });

  it('an operator image is served publicly by id', async () => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(tinyPng)], { type: 'image/png' }), 'cover.png');
    const response = await fetch(new URL('/api/admin/content/images', server.baseUrl), {
      method: 'POST', body: form, headers: { 'X-Access-Token': operator },
    });
    const image = (await response.json()) as { success: boolean; result: { id: string; url: string } };
    expect(image.success).toBe(true);
    const served = await fetch(new URL(image.result.url, server.baseUrl));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('POST /api/admin/status/maintenance turns the status check on and off', async () => {
    const until = Date.now() + 3_600_000;
    expectSuccess(await client.post('/admin/status/maintenance', { maintenance: true, message: 'Upgrade in progress', until, reason: 'conformance' }, operator));
    const on = expectSuccess(await client.get<{ maintenance: boolean; message?: string; until?: number }>('/public/status'));
    expect(on).toMatchObject({ maintenance: true, message: 'Upgrade in progress', until });
    expectSuccess(await client.post('/admin/status/maintenance', { maintenance: false, reason: 'conformance done' }, operator));
    expect(expectSuccess(await client.get<{ maintenance: boolean }>('/public/status')).maintenance).toBe(false);
  });
});
