// The trading pages' user channel (features/trade/useUserEvents.ts): it authenticates on open,
// hands over the user's events, refetches everything after a reconnection, reconnects after a
// drop, and stops for good when the session is refused.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openUserChannel, tagsOf } from '../../src/features/trade/useUserEvents.ts';

class FakeSocket {
  static made: FakeSocket[] = [];
  sent: string[] = [];
  closed: number | undefined;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) { FakeSocket.made.push(this); }
  send(text: string) { this.sent.push(text); }
  close(code = 1000) {
    this.closed = code;
    this.onclose?.();
  }
  receive(frame: unknown) { this.onmessage?.({ data: JSON.stringify(frame) }); }
}

const create = (url: string) => new FakeSocket(url) as unknown as WebSocket;

describe('the user channel', () => {
  beforeEach(() => {
    FakeSocket.made = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('names the data each event makes stale', () => {
    expect(tagsOf({ kind: 'position', demo: false })).toEqual(['Position', 'Balance']);
    expect(tagsOf({ kind: 'second', demo: true })).toEqual(['SecondOrder', 'Demo', 'Balance']);
    expect(tagsOf({ kind: 'swap', demo: false })).toEqual(['Swap', 'Balance']);
    expect(tagsOf({ kind: 'balance', demo: false })).toEqual(['Balance']);
  });

  it('authenticates on open, delivers events, resumes after a drop with a refetch', () => {
    const events: unknown[] = [];
    const onResume = vi.fn();
    const stop = openUserChannel({ token: 'tok-123', onEvent: (event) => events.push(event), onResume, createSocket: create, url: 'ws://x/api/ws' });
    const first = FakeSocket.made[0];
    first.onopen?.();
    expect(JSON.parse(first.sent[0])).toEqual({ op: 'auth', token: 'tok-123' });
    first.receive({ type: 'subscribed', channels: ['user'] });
    first.receive({ type: 'update', channel: 'user', seq: 1, data: { kind: 'position', demo: false, id: '4' } });
    first.receive({ type: 'update', channel: 'tickers', seq: 1, data: [] });
    expect(events).toEqual([{ kind: 'position', demo: false, id: '4' }]);
    expect(onResume).not.toHaveBeenCalled();

    first.close(1006);
    vi.advanceTimersByTime(60_000);
    const second = FakeSocket.made[1];
    expect(second).toBeDefined();
    second.onopen?.();
    second.receive({ type: 'subscribed', channels: ['user'] });
    expect(onResume).toHaveBeenCalledTimes(1);
    stop();
    expect(second.closed).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.made).toHaveLength(2);
  });

  it('stops for good when the server refuses the session', () => {
    openUserChannel({ token: 'old', onEvent: () => undefined, onResume: () => undefined, createSocket: create, url: 'ws://x/api/ws' });
    const socket = FakeSocket.made[0];
    socket.onopen?.();
    socket.receive({ type: 'error', code: 'unauthorized', message: 'Please log in again.', channel: 'user' });
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.made).toHaveLength(1);
  });
});
