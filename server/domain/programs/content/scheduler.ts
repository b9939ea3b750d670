// Pushes scheduled notices and announcements when they publish (issue 21): every few seconds
// pushScheduled claims the window since the last step (a compare-and-set on a system setting, so
// with several instances each window is pushed by one of them) and hands what published in it to
// the push service. One step at a time; stop() waits for the step in hand.
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import { pushScheduled, type ContentPusher } from './content.ts';

export const scheduledPushIntervalMs = 10_000;

export interface ScheduledPushes { stop(): Promise<void> }

export function startScheduledPushes(options: {
  db: Db; clock: Clock; push: ContentPusher | undefined; intervalMs?: number; onError: (error: unknown) => void;
}): ScheduledPushes {
  const { push } = options;
  if (!push) return { stop: async () => {} };
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const step = () => {
    if (stopped) return;
    running = running.then(() => pushScheduled(options.db, push, options.clock.now(), options.onError)).catch(options.onError);
  };
  step();
  const timer = setInterval(step, options.intervalMs ?? scheduledPushIntervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
