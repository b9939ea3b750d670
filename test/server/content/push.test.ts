// Content pushes (issue 21): a notice or announcement published now is handed to the push service
// at once (the short notice form always, an item when it asks for push); one published later with
// push is marked and handed over by the scheduler's step once its time has come, exactly once, to
// its audience. The push service here records what it is handed (the sending itself is the push
// helper's, tested against a local push service in test/server/push).
import { describe, expect, it } from 'vitest';
import { contentAdminPaths } from '../../../src/api/contract/content.ts';
import { pushScheduled, type ContentPusher } from '../../../server/domain/programs/content/content.ts';
import { expectOk, forEachDatabase } from '../helpers.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { userIdOf } from '../wallet/walletHelpers.ts';

type Handed = { category: string; payload: { title: string; route: string; category: string }; audience?: readonly bigint[] };

function recorder() {
  const handed: Handed[] = [];
  const pusher: ContentPusher = {
    toCategory: async (category, payload, audience) => {
      handed.push({ category, payload, ...(audience ? { audience } : {}) });
      return { sent: 0, removed: 0, failed: 0 };
    },
  };
  return { handed, pusher };
}

const hour = 3_600_000;
const noErrors = (error: unknown) => { throw error; };

forEachDatabase((server) => {
  describe('content pushes', () => {
    it('live ones at once, scheduled ones when they publish, once, to their audience', async () => {
      const admin = await operatorLogin(server, await createOperator(server));
      const { handed, pusher } = recorder();
      const original = server.services.push;
      Object.assign(server.services, { push: pusher });
      try {
        expect(await pushScheduled(server.db, pusher, server.clock.now(), noErrors)).toBe(0); // sets the cursor
        const now = server.clock.now().getTime();
        const live = expectOk(await server.post(contentAdminPaths.notices, { title: 'Live now', body: '<p>Now.</p>' }, { token: admin })).body.result;
        expect(handed).toEqual([{ category: 'notices', payload: expect.objectContaining({ title: 'Live now', category: 'notices', route: `/noticeDetail?id=${live.id}` }) }]);
        const later = expectOk(await server.post(contentAdminPaths.notices, { title: 'Later', body: '<p>Later.</p>', publishAt: now + hour }, { token: admin })).body.result;
        expect(later).toMatchObject({ status: 'scheduled', push: true, audience: { kind: 'all' } });
        const user = await server.registerByEmail();
        const userId = await userIdOf(server, user.email!);
        expectOk(await server.post(contentAdminPaths.items, {
          kind: 'announcement', push: true, publishAt: now + hour, audience: { kind: 'users', userIds: [String(userId)] },
          translations: [{ lang: 'en-us', title: 'For one user', body: '<p>Hello.</p>' }],
        }, { token: admin }));
        const quiet = expectOk(await server.post(contentAdminPaths.items, {
          kind: 'notice', publishAt: now + hour, translations: [{ lang: 'en-us', title: 'No push', body: '<p>Quiet.</p>' }],
        }, { token: admin })).body.result;
        expect(quiet.push).toBeUndefined();
        expectOk(await server.post(contentAdminPaths.items, {
          kind: 'help', push: true, category: 'account', translations: [{ lang: 'en-us', title: 'Help is never pushed', body: '<p>x</p>' }],
        }, { token: admin }));
        expect(handed).toHaveLength(1);
        server.clock.advance(hour / 2);
        expect(await pushScheduled(server.db, pusher, server.clock.now(), noErrors)).toBe(0);
        server.clock.advance(hour / 2);
        expect(await pushScheduled(server.db, pusher, server.clock.now(), noErrors)).toBe(2);
        expect(handed.slice(1).map((h) => [h.payload.title, h.audience])).toEqual([['Later', undefined], ['For one user', [userId]]]);
        expect(await pushScheduled(server.db, pusher, server.clock.now(), noErrors)).toBe(0);
        server.clock.advance(hour);
        expect(await pushScheduled(server.db, pusher, server.clock.now(), noErrors)).toBe(0);
        expect(handed).toHaveLength(3);
      } finally {
        Object.assign(server.services, { push: original });
      }
    });
  });
}, { databases: 'embedded' });
