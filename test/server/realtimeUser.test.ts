// The user's own realtime channel (issue 10): a connection authenticates with its session token
// and then receives that user's events (positions, settlements, balances) and no one else's; a
// wrong token is refused, repeated wrong tokens close the connection, and a malformed auth message
// is malformed. Through the real server and a `ws` client; no assertion depends on timing.
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../server/db/schema.ts';
import { authAttemptsMax } from '../../server/plugins/realtime/sessions.ts';
import { forEachDatabase } from './helpers.ts';
import { socketClients, socketUrl } from './realtimeHelpers.ts';

forEachDatabase((server) => {
  let url: string;
  const connect = socketClients(() => url);

  beforeAll(async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(server.app);
  });

  const userIdOf = async (email: string) =>
    (await server.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;

  describe('the user channel on /api/ws', () => {
    it('sends a user their own events after auth, and not another user\'s', async () => {
      const alice = await server.registerByEmail();
      const bob = await server.registerByEmail();
      const aliceId = await userIdOf(alice.email!);
      const bobId = await userIdOf(bob.email!);
      const client = await connect();
      client.send({ op: 'auth', token: alice.token });
      expect((await client.next('subscribed')).channels).toEqual(['user']);

      server.services.userEvents.publish(bobId, { kind: 'position', demo: false, id: '7', status: 'closed' });
      server.services.userEvents.publish(aliceId, { kind: 'second', demo: true, id: '9', status: 'won' });
      const first = await client.nextOn('user');
      // Bob's event came first and was not delivered: the first frame Alice sees is her own.
      expect(first).toMatchObject({ type: 'update', channel: 'user', seq: 1, data: { kind: 'second', demo: true, id: '9', status: 'won' } });
      server.services.userEvents.publish(aliceId, { kind: 'balance', demo: false });
      expect(await client.nextOn('user')).toMatchObject({ seq: 2, data: { kind: 'balance', demo: false } });
    });

    it('refuses a token that names no session, and closes a connection that keeps trying', async () => {
      const client = await connect();
      client.send({ op: 'auth', token: 'x'.repeat(43) });
      expect(await client.next('error')).toMatchObject({ code: 'unauthorized', channel: 'user' });
      for (let attempt = 1; attempt < authAttemptsMax; attempt += 1) {
        client.send({ op: 'auth', token: 'y'.repeat(43) });
        expect(await client.next('error')).toMatchObject({ code: 'unauthorized' });
      }
      client.send({ op: 'auth', token: 'z'.repeat(43) });
      expect((await client.closed).code).toBe(1008);
    });

    it('answers an auth message without a token as malformed, and keeps the connection', async () => {
      const client = await connect();
      client.send({ op: 'auth' });
      expect(await client.next('error')).toMatchObject({ code: 'malformed' });
      client.send({ op: 'ping' });
      await client.next('pong');
    });

    it('stops sending a user\'s events once the connection is closed', async () => {
      const carol = await server.registerByEmail();
      const carolId = await userIdOf(carol.email!);
      const client = await connect();
      client.send({ op: 'auth', token: carol.token });
      await client.next('subscribed');
      client.socket.close();
      await client.closed;
      // Nothing to deliver to: publishing must not throw.
      expect(() => server.services.userEvents.publish(carolId, { kind: 'balance', demo: false })).not.toThrow();
    });
  });
}, { databases: 'embedded' });
