// Web Push for one app: the VAPID keys, the sending service (services.push) and the price-alert
// engine fed with this instance's market updates. app.ts starts it; see service.ts and alerts.ts.
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import type { MarketView } from '../../core/market/view.ts';
import { PriceAlertEngine } from './alerts.ts';
import { loadVapidKeys } from './keys.ts';
import { createPushService, pushSettingsFromEnv } from './service.ts';
import type { PushService } from '../../kernel/push.ts';


export interface PushRuntime {
  service: PushService;
  alerts: PriceAlertEngine;
  /** Stops the alert engine, lets the pushes in flight finish, and closes the connections. */
  close(): Promise<void>;
}

export async function startPush(options: {
  db: Db; clock: Clock; dataDir: string; publicOrigin: string; market: MarketView; env?: NodeJS.ProcessEnv;
  onError?: (error: unknown) => void;
}): Promise<PushRuntime> {
  const env = options.env ?? process.env;
  const service = createPushService({
    db: options.db, clock: options.clock, keys: loadVapidKeys(options.dataDir, env, options.publicOrigin),
    settings: pushSettingsFromEnv(env), onError: options.onError,
  });
  const alerts = new PriceAlertEngine({ db: options.db, clock: options.clock, delivery: service, onError: options.onError });
  await alerts.start();
  const stop = options.market.onUpdate((update) => alerts.onUpdate(update));
  const sendingIdle = service.idle;
  return {
    // idle() also waits for the alerts the updates so far fired (their pushes follow their commits).
    service: { ...service, idle: async () => { await alerts.drained(); await sendingIdle(); } },
    alerts,
    async close() {
      stop();
      alerts.close();
      await alerts.drained();
      await service.idle();
      service.close();
    },
  };
}
