// What every route and job may use, built once per app: the database, clock, limits, limiter,
// message delivery and keys. Tests build it with their own clock and database.
import type { Db } from '../../db/client.ts';
import type { Limits, OidcProviderConfig } from '../../lib/config.ts';
import type { Clock } from '../../lib/time.ts';
import type { RateLimiter } from '../../lib/rateLimiter.ts';
import type { MessageSender } from './delivery.ts';
import type { ReplayStore } from '../../lib/replayStore.ts';
import type { UploadStorage } from './uploads.ts';
import type { UserEventBus } from './userEvents.ts';
import type { ChatEventBus } from './chatEvents.ts';
import type { PushService } from './push.ts';
import type { DomainPorts } from './ports.ts';
import type { JobName } from '../../../src/api/contract/products.ts';

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
  /** The support chat's events for users' and operators' sockets: chat publishes here (kernel/chatEvents.ts). */
  chatEvents: ChatEventBus;
  /** Whether a user's app holds its realtime channel on this instance (set once the socket hub exists; chat). */
  userOnline?: (userId: bigint) => boolean;
  /**
   * Web Push (domain/push): toUser, toCategory (a notice to the notices category) and deliver
   * (a MessageDelivery: written internal messages pushed after commit). Set by buildApp.
   */
  push?: PushService;
  /** Where lower floors make higher ones act (kernel/ports.ts), wired by app.ts. */
  ports: DomainPorts;
  /** The daily jobs' work by name (server/jobs.ts), wired by app.ts; the kernel's runner runs them. */
  jobs?: JobRegistry;
}

export interface HealthSignals {
  /** When a Redis call last failed (the limiter then used this instance's counters). */
  redisFailedAtMs: number | undefined;
  /** Whether the market bus and the Redis client are connected now (set once the app has its bus). */
  redisConnected?: () => boolean;
}

/** What a daily job answers: counts and totals for its run's record. */
export type JobResult = Record<string, string | number>;
/** A job's work for one UTC day (YYYY-MM-DD); it must be safe to call again for the same day. */
export type JobWork = (services: Services, day: string) => Promise<JobResult>;
/** Every job's work by name (server/jobs.ts, wired by composition as services.jobs; kernel/jobs.ts runs them). */
export type JobRegistry = Record<JobName, JobWork>;
