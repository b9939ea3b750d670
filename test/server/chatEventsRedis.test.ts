// Chat events between instances (issue 33): the chat's own bus carries what one instance publishes
// to the listeners of every instance on the same Redis channel, a user's event with its user id
// intact as a bigint and the operators' event as it was sent, and a closed bus hears nothing more.
// Uses the machine's Redis (REDIS_URL or 127.0.0.1:6379).
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { redisChatEvents, type ChatDelivery, type ChatEventBus } from '../../server/domain/kernel/chatEvents.ts';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('chat events over Redis', () => {
  const buses: ChatEventBus[] = [];
  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
  });

  it('carries a user\'s and the operators\' events from one instance to the other, in order', async () => {
    const channel = `bourse:test-chat-events:${randomBytes(6).toString('hex')}`;
    const publisher = await redisChatEvents(url, { channel });
    const receiver = await redisChatEvents(url, { channel });
    buses.push(publisher, receiver);
    const heard: ChatDelivery[] = [];
    const both = new Promise<void>((resolve) => {
      receiver.subscribe((delivery) => {
        heard.push(delivery);
        if (heard.length === 2) resolve();
      });
    });
    const toUser: ChatDelivery = { to: 'user', userId: 9_007_199_254_740_993n, event: { type: 'chat.typing', conversationId: '4', by: 'operator' } };
    const toOperators: ChatDelivery = { to: 'operators', event: { type: 'chat.read', conversationId: '4', seq: 3, by: 'user', userId: '9007199254740993' } };
    publisher.publish(toUser);
    publisher.publish(toOperators);
    await both;
    expect(heard).toEqual([toUser, toOperators]);
  });

  it('stops hearing once closed', async () => {
    const channel = `bourse:test-chat-events:${randomBytes(6).toString('hex')}`;
    const publisher = await redisChatEvents(url, { channel });
    const closed = await redisChatEvents(url, { channel });
    const open = await redisChatEvents(url, { channel });
    buses.push(publisher, open);
    const heardClosed: ChatDelivery[] = [];
    closed.subscribe((delivery) => heardClosed.push(delivery));
    await closed.close();
    const heardOpen = new Promise<ChatDelivery>((resolve) => open.subscribe(resolve));
    const delivery: ChatDelivery = { to: 'user', userId: 5n, event: { type: 'chat.status', conversationId: '9', status: 'closed' } };
    publisher.publish(delivery);
    // The open bus hearing it means Redis delivered it to every subscriber there was.
    expect(await heardOpen).toEqual(delivery);
    expect(heardClosed).toEqual([]);
  });
});
