// The kept pages' frame (app/KeepAlive.tsx) is not part of the first screen: Root has nothing to
// draw until the router loads it with the first kept route, and then draws the real frame.
import { describe, expect, it } from 'vitest';
import { keepAliveFrame, loadKeepAliveFrame } from '../../src/app/keptPages.ts';

describe('the kept pages\' frame', () => {
  it('is absent until loaded, then is KeepAlive itself', async () => {
    expect(keepAliveFrame()).toBeUndefined();
    await loadKeepAliveFrame();
    const { KeepAlive } = await import('../../src/app/KeepAlive.tsx');
    expect(keepAliveFrame()).toBe(KeepAlive);
  });
});
