// The push port: what the rest of the server may ask of Web Push (services.push). The sending
// service itself is the push program (server/domain/programs/push/service.ts); composition wires it.
import type { PushCategory } from '../../../src/api/contract/content.ts';
import type { PushPayload } from '../../../src/api/contract/push.ts';
import type { MessageDelivery } from './messages.ts';

export interface PushSettings {
  /** PUSH_ALLOW_PRIVATE_ENDPOINTS=1: endpoints may be on private addresses (the tests' push service). */
  allowPrivate: boolean;
  /** Requests in flight at most (PUSH_CONCURRENCY, 32). */
  concurrency: number;
  /** Per-request timeout (ms). */
  timeoutMs: number;
}

/** What the worker receives: the wire payload plus the message's kind and params (optional). */
export interface PushMessage extends PushPayload {
  kind?: string;
  params?: Record<string, string>;
}

export interface PushOutcome {
  /** Accepted by the push service (2xx). */
  sent: number;
  /** Gone (404/410): deleted. */
  removed: number;
  /** Any other failure (counted on the subscription). */
  failed: number;
}

export interface PushService extends MessageDelivery {
  readonly publicKey: string;
  readonly settings: PushSettings;
  /** Pushes to every subscription of one user that wants `category`. */
  toUser(userId: bigint, category: PushCategory, payload: PushMessage): Promise<PushOutcome>;
  /** Pushes to every subscription that wants `category`; with `audience`, only those users' ones. */
  toCategory(category: PushCategory, payload: PushMessage, audience?: readonly bigint[]): Promise<PushOutcome>;
  /** Resolves when every push handed over so far (deliver's included) has been answered. */
  idle(): Promise<void>;
  close(): void;
}
