// User events between instances (issue 10): what one instance publishes on Redis reaches the
// listeners of every instance on the same channel, with the user id intact as a bigint, and a
// closed bus hears nothing more. Uses the machine's Redis (REDIS_URL or 127.0.0.1:6379).
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { UserEvent } from '../../src/api/contract/market.ts';
import { redisUserEvents, type UserEventBus } from '../../server/domain/kernel/userEvents.ts';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('user events over Redis', () => {
  const buses: UserEventBus[] = [];
  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
  });

  it('carries an event from one instance to the other', async () => {
    const channel = `bourse:test-user-events:${randomBytes(6).toString('hex')}`;
    const publisher = await redisUserEvents(url, { channel });
    const receiver = await redisUserEvents(url, { channel });
    buses.push(publisher, receiver);
    const received = new Promise<[bigint, UserEvent]>((resolve) => {
      receiver.subscribe((userId, event) => resolve([userId, event]));
    });
    const event: UserEvent = { kind: 'position', demo: false, id: '12', status: 'closed' };
    publisher.publish(9_007_199_254_740_993n, event);
    expect(await received).toEqual([9_007_199_254_740_993n, event]);
  });
});
