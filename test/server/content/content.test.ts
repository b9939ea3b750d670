// Notices, announcements, help, news, internal messages and the status check (issue 21), driven
// through the real protocol on both databases: an operator writes in the back office, users read
// with and without a session.
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { contentAdminPaths, contentPaths } from '../../../src/api/contract/content.ts';
import { apiPrefix } from '../../../src/api/contract/paths.ts';
import { auditLog, contentItems, contentTranslations, userMessages } from '../../../server/db/schema.ts';
import { writeMessage } from '../../../server/domain/kernel/messages.ts';
import { audienceUserIds } from '../../../server/domain/programs/content/content.ts';
import { expectOk, expectRefused, forEachDatabase, type Account, type TestServer } from '../helpers.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { markVerified } from '../identity/kycHelpers.ts';
import { fundSpot } from '../trading/positionHelpers.ts';
import { getRaw, multipartBody, pdfDocument, pngImage, userIdOf } from '../wallet/walletHelpers.ts';

const hour = 3_600_000;
const withId = (path: string, id: string) => path.replace(':id', id);

async function adminToken(server: TestServer, role: 'admin' | 'finance' = 'admin') {
  return operatorLogin(server, await createOperator(server, role));
}

async function postImage(server: TestServer, token: string, bytes: Buffer, contentType = 'image/png') {
  const body = multipartBody({ bytes, filename: 'picture.png', contentType }, {});
  const response = await server.app.inject({
    method: 'POST', url: `${apiPrefix}${contentAdminPaths.images}`, payload: body.payload,
    headers: { 'content-type': body.contentType, 'x-access-token': token }, remoteAddress: '10.201.0.1',
  });
  return { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body) };
}

const item = (fields: Record<string, unknown>) => ({
  kind: 'notice',
  translations: [{ lang: 'en-us', title: `Title ${Math.random()}`, body: '<p>English body</p>' }],
  ...fields,
});

forEachDatabase((server) => {
  let admin: string;
  const create = async (fields: Record<string, unknown>) =>
    expectOk(await server.post(contentAdminPaths.items, item(fields), { token: admin })).body.result;

  beforeAll(async () => {
    admin = await adminToken(server);
  });

  describe('notices', () => {
    it('a notice from the short form is published now, in English, on home and in the list, for anyone', async () => {
      const title = server.unique('Scheduled maintenance ');
      const created = expectOk(await server.post(contentAdminPaths.notices, {
        title, body: '<p>Trading pauses on <strong>Sunday</strong> from 02:00 to 03:00 UTC.</p>',
      }, { token: admin })).body.result;
      expect(created).toMatchObject({ kind: 'notice', status: 'live', title });
      const home = expectOk(await server.get(contentPaths.homeNotices)).body.result;
      expect(home[0]).toMatchObject({ id: created.id, title, lang: 'en-us', summary: 'Trading pauses on Sunday from 02:00 to 03:00 UTC.' });
      expect(home[0].bodyHtml).toBeUndefined();
      const page = expectOk(await server.get(contentPaths.notices, { pageSize: '5' })).body.result;
      expect(page.records.map((r: { id: string }) => r.id)).toContain(created.id);
      const one = expectOk(await server.get(contentPaths.articleById, { id: created.id })).body.result;
      expect(one.bodyHtml).toBe('<p>Trading pauses on <strong>Sunday</strong> from 02:00 to 03:00 UTC.</p>');
      // The notice's own path answers the same, to anyone.
      expect(expectOk(await server.get(contentPaths.noticeById, { id: created.id })).body.result).toEqual(one);
      const [audit] = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'content.create'), eq(auditLog.targetId, created.id)));
      expect(audit).toBeDefined();
    });

    it('hostile HTML is neutralised before it is stored', async () => {
      const hostile = [
        '<p onclick="steal()" style="position:fixed" class="x">Hello<script>alert(1)</script></p>',
        '<img src="x" onerror="alert(1)"><img src="https://evil.example/track.gif">',
        '<a href="javascript:alert(1)">one</a><a href="JaVaScRiPt&#58;alert(2)">two</a><a href="data:text/html,x">three</a>',
        '<iframe src="https://evil.example"></iframe><svg><script>alert(3)</script></svg><style>*{display:none}</style>',
        '<scr<script>ipt>alert(4)</script><a href="https://bourse.example/help">safe link</a>',
        '<form action="https://evil.example"><input name="password"></form><object data="x"></object>',
      ].join('');
      const created = expectOk(await server.post(contentAdminPaths.notices, { title: 'Hostile <b>title</b>', body: hostile }, { token: admin })).body.result;
      const [stored] = await server.db.select().from(contentTranslations).where(eq(contentTranslations.itemId, BigInt(created.id)));
      for (const bad of ['<script', 'onclick', 'onerror', 'style=', 'class=', 'javascript:', 'data:', '<iframe', '<svg', '<style', '<form', '<input', '<object', 'evil.example']) {
        expect(stored.bodyHtml.toLowerCase()).not.toContain(bad.toLowerCase());
      }
      expect(stored.bodyHtml).toContain('<a href="https://bourse.example/help" rel="noopener noreferrer" target="_blank">safe link</a>');
      expect(stored.title).toBe('Hostile title');
      expect(stored.bodyText).toContain('Hello');
    });

    it('a body of nothing but unsafe markup is refused and nothing is stored', async () => {
      const before = await server.db.select({ n: sql<number>`count(*)::int` }).from(contentItems);
      expectRefused(await server.post(contentAdminPaths.notices, { title: 'Empty', body: '<script>alert(1)</script>' }, { token: admin }), 400, 'invalid_request');
      const after = await server.db.select({ n: sql<number>`count(*)::int` }).from(contentItems);
      expect(after[0].n).toBe(before[0].n);
    });

    it('an unknown language is refused with a clear message and nothing is stored', async () => {
      const before = await server.db.select({ n: sql<number>`count(*)::int` }).from(contentItems);
      const reply = await server.post(contentAdminPaths.notices, { title: 'Hi', body: '<p>x</p>', lang: 'klingon' }, { token: admin });
      expectRefused(reply, 400, 'invalid_request');
      expect(reply.body.message).toMatch(/language/i);
      const item2 = await server.post(contentAdminPaths.items, item({ translations: [
        { lang: 'en-us', title: 'A', body: '<p>a</p>' }, { lang: 'xx-yy', title: 'B', body: '<p>b</p>' },
      ] }), { token: admin });
      expectRefused(item2, 400, 'invalid_request');
      expect(item2.body.message).toMatch(/language/i);
      const noEnglish = await server.post(contentAdminPaths.items, item({ translations: [{ lang: 'zh-cn', title: '公告', body: '<p>内容</p>' }] }), { token: admin });
      expectRefused(noEnglish, 400, 'invalid_request');
      expect(noEnglish.body.message).toMatch(/English/);
      const after = await server.db.select({ n: sql<number>`count(*)::int` }).from(contentItems);
      expect(after[0].n).toBe(before[0].n);
    });

    it('a finance operator may read the items but not write them; a user token opens nothing', async () => {
      const finance = await adminToken(server, 'finance');
      expectRefused(await server.post(contentAdminPaths.notices, { title: 'x', body: '<p>x</p>' }, { token: finance }), 403, 'forbidden');
      expectOk(await server.get(contentAdminPaths.items, {}, { token: finance }));
      const user = await server.registerByEmail();
      expectRefused(await server.post(contentAdminPaths.notices, { title: 'x', body: '<p>x</p>' }, { token: user.token }), 401, 'unauthorized');
    });

    it('publishing and expiry windows: not before publishAt, not after expireAt; a withdrawn one disappears', async () => {
      const now = server.clock.now().getTime();
      const later = await create({ publishAt: now + hour, expireAt: now + 3 * hour });
      expect(later.status).toBe('scheduled');
      const ids = async () => expectOk(await server.get(contentPaths.notices, { pageSize: '100' })).body.result.records.map((r: { id: string }) => r.id);
      expect(await ids()).not.toContain(later.id);
      expectRefused(await server.get(contentPaths.articleById, { id: later.id }), 404, 'not_found');
      server.clock.advance(hour);
      expect(await ids()).toContain(later.id);
      server.clock.advance(2 * hour);
      expect(await ids()).not.toContain(later.id);
      admin = await adminToken(server); // the back-office session idled out meanwhile
      const live = await create({});
      expect(await ids()).toContain(live.id);
      expectOk(await server.post(withId(contentAdminPaths.withdraw, live.id), { reason: 'Posted by mistake' }, { token: admin }));
      expect(await ids()).not.toContain(live.id);
      expectRefused(await server.post(withId(contentAdminPaths.withdraw, live.id), { reason: 'Again' }, { token: admin }), 409, 'record_already_decided');
      expectRefused(await server.post(contentAdminPaths.items, item({ publishAt: now + 2 * hour, expireAt: now + hour }), { token: admin }), 400, 'invalid_request');
    });
  });

  describe('languages', () => {
    it('an item comes in the language asked for, or in English when it has none', async () => {
      const created = await create({ kind: 'article', category: 'market', translations: [
        { lang: 'en-us', title: 'Gold at a record', body: '<p>Gold rose above its high.</p>' },
        { lang: 'zh-cn', title: '黄金创新高', body: '<p>黄金突破前高。</p>' },
      ] });
      const zh = expectOk(await server.get(contentPaths.articleById, { id: created.id, lang: 'zh-cn' })).body.result;
      expect(zh).toMatchObject({ title: '黄金创新高', lang: 'zh-cn', bodyHtml: '<p>黄金突破前高。</p>' });
      const ko = expectOk(await server.get(contentPaths.articleById, { id: created.id, lang: 'ko' })).body.result;
      expect(ko).toMatchObject({ title: 'Gold at a record', lang: 'en-us' });
      const list = expectOk(await server.get(contentPaths.articles, { lang: 'zh-cn', category: 'market' })).body.result;
      expect(list.records[0]).toMatchObject({ id: created.id, title: '黄金创新高', category: 'market' });
      expectRefused(await server.get(contentPaths.articles, { lang: 'klingon' }), 400, 'invalid_request');
      // An update replaces the texts; the kind stays.
      const updated = expectOk(await server.post(withId(contentAdminPaths.item, created.id), {
        kind: 'article', category: 'market', translations: [{ lang: 'en-us', title: 'Gold eases', body: '<p>Gold fell back.</p>' }], reason: 'Correction',
      }, { token: admin })).body.result;
      expect(updated.translations.map((t: { lang: string }) => t.lang)).toEqual(['en-us']);
      const again = expectOk(await server.get(contentPaths.articleById, { id: created.id, lang: 'zh-cn' })).body.result;
      expect(again).toMatchObject({ title: 'Gold eases', lang: 'en-us' });
      expectRefused(await server.post(withId(contentAdminPaths.item, created.id), item({ kind: 'help' }), { token: admin }), 400, 'invalid_request');
    });
  });

  describe('help centre', () => {
    it('searches titles and bodies in the language asked for, by category, with wildcards taken literally', async () => {
      const tag = server.unique('zq');
      const a = await create({ kind: 'help', category: 'deposits', translations: [
        { lang: 'en-us', title: `How to deposit ${tag}`, body: '<p>Open the wallet and choose Deposit. Fees are 0% here.</p>' },
        { lang: 'zh-cn', title: `如何充值 ${tag}`, body: '<p>打开钱包并选择充值。</p>' },
      ] });
      const b = await create({ kind: 'help', category: 'security', translations: [
        { lang: 'en-us', title: `Two-factor login ${tag}`, body: '<p>Turn on the authenticator in the security centre.</p>' },
      ] });
      const search = async (query: Record<string, string>) =>
        expectOk(await server.get(contentPaths.helpList, query)).body.result.records.map((r: { id: string }) => r.id);
      expect(await search({ q: tag })).toEqual(expect.arrayContaining([a.id, b.id]));
      expect(await search({ q: 'authenticator' })).toContain(b.id);
      expect(await search({ q: 'authenticator' })).not.toContain(a.id);
      expect(await search({ q: tag, category: 'deposits' })).toEqual([a.id]);
      expect(await search({ q: '钱包', lang: 'zh-cn' })).toEqual([a.id]);
      expect(await search({ q: '0%' })).toEqual([a.id]);
      expect(await search({ q: '%' })).toEqual([a.id]);
      expect(await search({ q: '_' })).toEqual([]);
      const one = expectOk(await server.get(contentPaths.helpById, { id: b.id })).body.result;
      expect(one.bodyHtml).toContain('authenticator');
      // Searches are limited per address (plain lists are not).
      const ip = server.freshIp();
      for (let i = 0; i < 120; i += 1) expectOk(await server.get(contentPaths.helpList, { q: 'deposit' }, { ip }));
      expectRefused(await server.get(contentPaths.helpList, { q: 'deposit' }, { ip }), 429, 'rate_limited');
      expectOk(await server.get(contentPaths.helpList, {}, { ip }));
      // A help id is not a notice, and the other way round.
      expectRefused(await server.get(contentPaths.helpById, { id: (await create({})).id }), 404, 'not_found');
    });
  });

  describe('announcements', () => {
    let alice: Account;
    let bob: Account;
    let aliceId: bigint;
    let bobId: bigint;
    beforeAll(async () => {
      alice = await server.registerByEmail();
      bob = await server.registerByEmail();
      aliceId = await userIdOf(server, alice.email!);
      bobId = await userIdOf(server, bob.email!);
      // 1 000 USDT of assets is VIP 1 (the default levels); Bob holds nothing, VIP 0.
      await fundSpot(server, aliceId, '1000');
    });

    it('are meant for an audience: everyone, a list of users, a KYC level, a VIP level', async () => {
      const toAll = await create({ kind: 'announcement', popup: true });
      const toAlice = await create({ kind: 'announcement', audience: { kind: 'users', userIds: [String(aliceId)] } });
      const toVerified = await create({ kind: 'announcement', audience: { kind: 'kyc', min: 1 } });
      const toVip = await create({ kind: 'announcement', audience: { kind: 'vip', min: 1 } });
      const toVip2 = await create({ kind: 'announcement', audience: { kind: 'vip', min: 2 } });
      const toVip0 = await create({ kind: 'announcement', audience: { kind: 'vip', min: 0 } });
      await markVerified(server, aliceId, 1);
      const seen = async (account: Account) =>
        expectOk(await server.get(contentPaths.myAnnouncements, { pageSize: '100' }, { token: account.token })).body.result.records;
      const aliceIds = (await seen(alice)).map((r: { id: string }) => r.id);
      const bobIds = (await seen(bob)).map((r: { id: string }) => r.id);
      expect(aliceIds).toEqual(expect.arrayContaining([toAll.id, toAlice.id, toVerified.id, toVip0.id, toVip.id]));
      expect(aliceIds).not.toContain(toVip2.id);
      expect(bobIds).toEqual(expect.arrayContaining([toAll.id, toVip0.id]));
      expect(bobIds).not.toContain(toAlice.id);
      expect(bobIds).not.toContain(toVerified.id);
      expect(bobIds).not.toContain(toVip.id);
      // Opened and marked read by Alice (VIP 1), counted in her unread; Bob's answers as missing.
      const unread = async (account: Account) => expectOk(await server.get(contentPaths.unread, {}, { token: account.token })).body.result.announcements;
      const aliceUnread = await unread(alice);
      expect(expectOk(await server.get(contentPaths.noticeById, { id: toVip.id }, { token: alice.token })).body.result).toMatchObject({ id: toVip.id, kind: 'announcement' });
      expectOk(await server.post(contentPaths.readAnnouncement, { id: toVip.id }, { token: alice.token }));
      expect(await unread(alice)).toBe(aliceUnread - 1);
      expectRefused(await server.post(contentPaths.readAnnouncement, { id: toVip.id }, { token: bob.token }), 404, 'not_found');
      // A push to "VIP 1 or more" reaches Alice and not Bob.
      const pushedTo = await audienceUserIds(server.db, { kind: 'vip', min: 1 });
      expect(pushedTo).toContain(aliceId);
      expect(pushedTo).not.toContain(bobId);
      expect((await seen(alice)).find((r: { id: string }) => r.id === toAll.id).popup).toBe(true);
      // Bob cannot open or mark Alice's announcement: it answers as a missing one, as it does to anyone signed out.
      expectRefused(await server.get(contentPaths.articleById, { id: toAlice.id }, { token: bob.token }), 404, 'not_found');
      expectRefused(await server.get(contentPaths.noticeById, { id: toAlice.id }, { token: bob.token }), 404, 'not_found');
      expectRefused(await server.get(contentPaths.noticeById, { id: toVip.id }, { token: bob.token }), 404, 'not_found');
      expectRefused(await server.get(contentPaths.noticeById, { id: toAlice.id }), 404, 'not_found');
      expect(expectOk(await server.get(contentPaths.noticeById, { id: toAlice.id }, { token: alice.token })).body.result.id).toBe(toAlice.id);
      // The notice path opens notices and announcements only: an article or a help item is not found there.
      expectRefused(await server.get(contentPaths.noticeById, { id: (await create({ kind: 'article' })).id }), 404, 'not_found');
      expectRefused(await server.get(contentPaths.noticeById, { id: (await create({ kind: 'help' })).id }), 404, 'not_found');
      expectRefused(await server.post(contentPaths.readAnnouncement, { id: toAlice.id }, { token: bob.token }), 404, 'not_found');
      expectRefused(await server.get(contentPaths.myAnnouncements), 401, 'unauthorized');
      expectRefused(await server.post(contentAdminPaths.items, item({ kind: 'announcement', audience: { kind: 'users', userIds: ['999999999'] } }), { token: admin }), 400, 'invalid_request');
      expectRefused(await server.post(contentAdminPaths.items, item({ kind: 'notice', popup: true }), { token: admin }), 400, 'invalid_request');
    });

    it('read marks: unread counts go down once, readAt is kept, and operators see who read', async () => {
      const counts = async (account: Account) => expectOk(await server.get(contentPaths.unread, {}, { token: account.token })).body.result;
      const fresh = await create({ kind: 'announcement', audience: { kind: 'users', userIds: [String(aliceId)] } });
      const before = await counts(alice);
      const afterRead = expectOk(await server.post(contentPaths.readAnnouncement, { id: fresh.id }, { token: alice.token })).body.result;
      expect(afterRead.announcements).toBe(before.announcements - 1);
      const firstRead = server.clock.now().getTime();
      server.clock.advance(60_000);
      expectOk(await server.post(contentPaths.readAnnouncement, { id: fresh.id }, { token: alice.token }));
      expect((await counts(alice)).announcements).toBe(before.announcements - 1);
      const mine = expectOk(await server.get(contentPaths.myAnnouncements, { pageSize: '100' }, { token: alice.token })).body.result.records;
      expect(mine.find((r: { id: string }) => r.id === fresh.id).readAt).toBe(firstRead);
      const readers = expectOk(await server.get(withId(contentAdminPaths.readers, fresh.id), {}, { token: admin })).body.result;
      expect(readers.records).toEqual([{ userId: String(aliceId), account: alice.email, readAt: firstRead }]);
      const adminView = expectOk(await server.get(withId(contentAdminPaths.item, fresh.id), {}, { token: admin })).body.result;
      expect(adminView.readers).toBe(1);
    });
  });

  describe('internal messages', () => {
    it('are listed newest first with the unread count; one or all are marked read; another user\'s id is not found', async () => {
      const carol = await server.registerByEmail();
      const dave = await server.registerByEmail();
      const carolId = await userIdOf(server, carol.email!);
      const daveId = await userIdOf(server, dave.email!);
      const now = server.clock.now();
      const first = await writeMessage(server.db, { userId: carolId, kind: 'deposit_credited', category: 'money', params: { amount: '12.5', currency: 'USDT' }, route: '/chongzhitixianRecord', dedupeKey: 'test:1' }, now);
      expect(await writeMessage(server.db, { userId: carolId, kind: 'deposit_credited', category: 'money', dedupeKey: 'test:1' }, now)).toBeUndefined();
      const second = await writeMessage(server.db, { userId: carolId, kind: 'kyc_approved', category: 'security', params: { level: '1' }, route: '/renzhengResult', dedupeKey: 'test:2' }, now);
      const daves = await writeMessage(server.db, { userId: daveId, kind: 'withdrawal_paid', category: 'money', dedupeKey: 'test:3' }, now);
      const page = expectOk(await server.get(contentPaths.myMessages, {}, { token: carol.token })).body.result;
      expect(page.unread).toBe(2);
      expect(page.records.map((r: { id: string }) => r.id)).toEqual([String(second!.id), String(first!.id)]);
      expect(page.records[1]).toMatchObject({ kind: 'deposit_credited', category: 'money', params: { amount: '12.5', currency: 'USDT' }, route: '/chongzhitixianRecord' });
      expectRefused(await server.post(contentPaths.readMessages, { id: String(daves!.id) }, { token: carol.token }), 404, 'not_found');
      const [untouched] = await server.db.select().from(userMessages).where(eq(userMessages.id, daves!.id));
      expect(untouched.readAt).toBeNull();
      const one = expectOk(await server.post(contentPaths.readMessages, { id: String(first!.id) }, { token: carol.token })).body.result;
      expect(one.messages).toBe(1);
      const unreadOnly = expectOk(await server.get(contentPaths.myMessages, { unreadOnly: 'true' }, { token: carol.token })).body.result;
      expect(unreadOnly.records.map((r: { id: string }) => r.id)).toEqual([String(second!.id)]);
      const all = expectOk(await server.post(contentPaths.readMessages, { all: true }, { token: carol.token })).body.result;
      expect(all.messages).toBe(0);
      expect((await server.db.select().from(userMessages).where(eq(userMessages.id, daves!.id)))[0].readAt).toBeNull();
      expectRefused(await server.get(contentPaths.myMessages), 401, 'unauthorized');
      expectRefused(await server.post(contentPaths.readMessages, { all: false }, { token: carol.token }), 400, 'invalid_request');
    });
  });

  describe('images', () => {
    it('an operator uploads an image (re-encoded), anyone reads it by id, and a body may show only our own images', async () => {
      const image = expectOk(await postImage(server, admin, await pngImage(40, 30))).body.result;
      expect(image).toMatchObject({ contentType: 'image/png', width: 40, height: 30 });
      expect(image.url).toBe(`${apiPrefix}/public/content/image/${image.id}`);
      const served = await getRaw(server, `/public/content/image/${image.id}`);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.bytes.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
      expect((await getRaw(server, `/public/content/image/${'0'.repeat(32)}`)).status).toBe(404);
      expectRefused(await postImage(server, admin, pdfDocument(), 'application/pdf'), 400, 'file_type_unsupported');
      expectRefused(await postImage(server, admin, Buffer.from('<svg onload="alert(1)"></svg>'), 'image/svg+xml'), 400, 'file_type_unsupported');
      const article = await create({ kind: 'article', coverImageId: image.id, translations: [
        { lang: 'en-us', title: 'With pictures', body: `<p>Chart:</p><img src="${image.url}" alt="chart"><img src="https://tracker.example/p.gif">` },
      ] });
      const read = expectOk(await server.get(contentPaths.articleById, { id: article.id })).body.result;
      expect(read.coverUrl).toBe(image.url);
      expect(read.bodyHtml).toContain(`<img src="${image.url}" alt="chart" />`);
      expect(read.bodyHtml).not.toContain('tracker.example');
      expectRefused(await server.post(contentAdminPaths.items, item({ kind: 'article', coverImageId: 'f'.repeat(32) }), { token: admin }), 404, 'file_not_found');
    });
  });

  describe('status', () => {
    it('maintenance mode is off by default, set by an admin with a reason (audited), and ends at its end time', async () => {
      const initial = expectOk(await server.get(contentPaths.status)).body.result;
      expect(initial).toEqual({ maintenance: false, serverTime: server.clock.now().getTime() });
      const until = server.clock.now().getTime() + hour;
      expectRefused(await server.post(contentAdminPaths.maintenance, { maintenance: true, until: server.clock.now().getTime() - 1, reason: 'x' }, { token: admin }), 400, 'invalid_request');
      const set = expectOk(await server.post(contentAdminPaths.maintenance, {
        maintenance: true, message: 'Upgrading the matching engine.', until, minAppVersion: '1.2.0', reason: 'Planned upgrade',
      }, { token: admin })).body.result;
      expect(set).toMatchObject({ maintenance: true, until });
      const on = expectOk(await server.get(contentPaths.status)).body.result;
      expect(on).toEqual({ maintenance: true, message: 'Upgrading the matching engine.', until, minAppVersion: '1.2.0', serverTime: server.clock.now().getTime() });
      expect(expectOk(await server.get(contentAdminPaths.maintenance, {}, { token: admin })).body.result).toMatchObject({ maintenance: true, until });
      const [audit] = await server.db.select().from(auditLog).where(eq(auditLog.action, 'status.maintenance'));
      expect(audit.reason).toBe('Planned upgrade');
      server.clock.advance(hour);
      expect(expectOk(await server.get(contentPaths.status)).body.result.maintenance).toBe(false);
      admin = await adminToken(server);
      expectOk(await server.post(contentAdminPaths.maintenance, { maintenance: false, reason: 'Done' }, { token: admin }));
      expect(expectOk(await server.get(contentPaths.status)).body.result).toEqual({ maintenance: false, serverTime: server.clock.now().getTime() });
    });
  });
}, { databases: 'embedded' });
