// The first-paint gate (lib/firstPaint.ts): work kept off the first frame waits for the browser's
// first contentful paint, at most firstPaintWaitMaxMs, and anything asked later runs at once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint, firstPaintWaitMaxMs, resetFirstPaintForTests } from '../../src/lib/firstPaint.ts';

type Callback = (list: { getEntriesByName: (name: string) => unknown[] }, observer: { disconnect: () => void }) => void;

/** A PerformanceObserver that reports paint entries when the test says. */
function fakePaintTiming() {
  const observers: Callback[] = [];
  class FakeObserver {
    static supportedEntryTypes = ['paint'];
    constructor(private readonly callback: Callback) {}
    observe() { observers.push(this.callback); }
    disconnect() { observers.splice(observers.indexOf(this.callback), 1); }
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  return {
    paint(name: string) {
      for (const callback of [...observers]) callback({ getEntriesByName: (wanted) => (wanted === name ? [{ name }] : []) }, { disconnect: () => observers.splice(observers.indexOf(callback), 1) });
    },
  };
}

const settledWithin = async (promise: Promise<void>) => {
  let settled = false;
  void promise.then(() => { settled = true; });
  // Timers due now, and the one each caller sets to go on in a task of its own.
  await vi.advanceTimersByTimeAsync(1);
  await vi.advanceTimersByTimeAsync(1);
  return settled;
};

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  resetFirstPaintForTests();
});

describe('afterFirstPaint', () => {
  it('waits for the first contentful paint, not the first paint, and then answers in the next task', async () => {
    vi.useFakeTimers();
    const timing = fakePaintTiming();
    const painted = afterFirstPaint();
    expect(await settledWithin(painted)).toBe(false);
    timing.paint('first-paint');
    expect(await settledWithin(painted)).toBe(false);
    timing.paint('first-contentful-paint');
    expect(await settledWithin(painted)).toBe(true);
    expect(await settledWithin(afterFirstPaint())).toBe(true);
  });

  it('gives up waiting after firstPaintWaitMaxMs when no paint is reported', async () => {
    vi.useFakeTimers();
    fakePaintTiming();
    const painted = afterFirstPaint();
    await vi.advanceTimersByTimeAsync(firstPaintWaitMaxMs - 10);
    expect(await settledWithin(painted)).toBe(false);
    await vi.advanceTimersByTimeAsync(8);
    expect(await settledWithin(painted)).toBe(true);
  });

  it('does not wait where the browser has no paint timing', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('PerformanceObserver', undefined);
    expect(await settledWithin(afterFirstPaint())).toBe(true);
  });
});

describe('afterFirstPaint callers', () => {
  it('go on in separate tasks, not in one microtask checkpoint', async () => {
    vi.useFakeTimers();
    const timing = fakePaintTiming();
    const order: string[] = [];
    void afterFirstPaint().then(() => {
      order.push('first');
      queueMicrotask(() => order.push('first\'s microtask'));
    });
    void afterFirstPaint().then(() => order.push('second'));
    timing.paint('first-contentful-paint');
    await vi.advanceTimersByTimeAsync(1);
    // The first caller's microtasks ran before the second caller went on: another task.
    expect(order).toEqual(['first', 'first\'s microtask', 'second']);
  });
});
