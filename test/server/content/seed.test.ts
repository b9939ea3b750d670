// The demo's content (issue 21): after the demo seed, home shows three notices, a signed-in user
// the demo account gets the pop-up announcement (another account does not), the help centre has six articles in two categories and the news
// three, each in English and Chinese; seeding again adds nothing.
import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { contentPaths } from '../../../src/api/contract/content.ts';
import { contentItems } from '../../../server/db/schema.ts';
import { demoAccount, seed } from '../../../server/seed.ts';
import { paths } from '../../../src/api/contract/paths.ts';
import { expectOk, forEachDatabase } from '../helpers.ts';

forEachDatabase((server) => {
  it('seeds notices, a pop-up announcement, help in two categories and news, in English and Chinese, once', async () => {
    await seed(server.db, { demo: true, now: server.clock.now() });
    const notices = expectOk(await server.get(contentPaths.homeNotices)).body.result;
    expect(notices).toHaveLength(3);
    expect(notices[notices.length - 1]).toMatchObject({ title: 'Welcome to Bourse', lang: 'en-us' });
    const zh = expectOk(await server.get(contentPaths.homeNotices, { lang: 'zh-cn' })).body.result;
    expect(zh.map((n: { lang: string }) => n.lang)).toEqual(['zh-cn', 'zh-cn', 'zh-cn']);
    const demo = expectOk(await server.post(paths.login, { account: demoAccount.email, password: demoAccount.password })).body.result;
    const announcements = expectOk(await server.get(contentPaths.myAnnouncements, {}, { token: demo.token })).body.result.records;
    expect(announcements).toHaveLength(1);
    expect(announcements[0]).toMatchObject({ popup: true, title: 'Notifications are here' });
    const user = await server.registerByEmail();
    expect(expectOk(await server.get(contentPaths.myAnnouncements, {}, { token: user.token })).body.result.records).toEqual([]);
    const help = expectOk(await server.get(contentPaths.helpList, { pageSize: '50' })).body.result.records;
    expect(help).toHaveLength(6);
    expect(new Set(help.map((h: { category: string }) => h.category))).toEqual(new Set(['account', 'funds']));
    const search = expectOk(await server.get(contentPaths.helpList, { q: '提现', lang: 'zh-cn' })).body.result.records;
    expect(search.map((h: { title: string }) => h.title)).toContain('如何提现？');
    const news = expectOk(await server.get(contentPaths.articles)).body.result.records;
    expect(news).toHaveLength(3);
    const one = expectOk(await server.get(contentPaths.articleById, { id: news[0].id })).body.result;
    expect(one.bodyHtml).toMatch(/^<p>/);
    await seed(server.db, { demo: true, now: server.clock.now() });
    const [{ n }] = await server.db.select({ n: sql<number>`count(*)::int` }).from(contentItems);
    expect(Number(n)).toBe(13);
  });
}, { databases: 'embedded' });
