// What every route and job may use, built once per app: the database, clock, limits, limiter,
// message delivery and keys. Tests build it with their own clock and database.
import type { Db } from '../../db/client.ts';
import type { Limits, OidcProviderConfig } from '../../config.ts';
import type { Clock } from '../../lib/time.ts';
import type { RateLimiter } from '../../lib/rateLimiter.ts';
import type { MessageSender } from './delivery.ts';
import type { ReplayStore } from '../../lib/replayStore.ts';
import type { UploadStorage } from './uploads.ts';
import type { UserEventBus } from './userEvents.ts';
import type { PushService } from '../programs/push/service.ts';

export interface Services {
  db: Db;
  limits: Limits;
  clock: Clock;
  limiter: RateLimiter;
  sender: MessageSender;
  pepper: Buffer;
  /** Where users open the app (config.publicOrigin): SIWE domain, WebAuthn relying party, OIDC redirects. */
  publicOrigin: string;
  /** OpenID Connect providers users may log in with (config.oidcProviders); tests set their own. */
  oidcProviders: OidcProviderConfig[];
  /** The keys of accepted encrypted bodies (refuses replays). */
  replayStore: ReplayStore;
  /** Signals the health answer reports. */
  signals: HealthSignals;
  /** Identifies the web build being served (dist/version.json), or "dev". */
  version: string;
  /** Where uploaded files are kept (DATA_DIR/uploads). */
  uploads: UploadStorage;
  /** Each user's own realtime events (positions, settlements, balances): trading publishes here. */
  userEvents: UserEventBus;
  /** Whether a user's app holds its realtime channel on this instance (set once the socket hub exists; chat). */
  userOnline?: (userId: bigint) => boolean;
  /**
   * Web Push (domain/push): toUser, toCategory (a notice to the notices category) and deliver
   * (a MessageDelivery: written internal messages pushed after commit). Set by buildApp.
   */
  push?: PushService;
}

export interface HealthSignals {
  /** When a Redis call last failed (the limiter then used this instance's counters). */
  redisFailedAtMs: number | undefined;
  /** Whether the market bus and the Redis client are connected now (set once the app has its bus). */
  redisConnected?: () => boolean;
}
