// Internal messages (issue 21): the one place the domain writes a message to a user. Each money,
// trading and identity event calls writeMessage inside its own transaction, so the message exists
// exactly when the event does; after the transaction commits, the caller hands what it wrote to
// `deliverMessages`, which tells the user's open app (realtime) and sends a push to the user's
// subscriptions of that category. A dedupe key per event makes writing twice harmless.
import { sql } from 'drizzle-orm';
import type { Tx, Db } from '../../db/client.ts';
import { userMessages } from '../../db/schema.ts';
import type { MessageKind, PushCategory } from '../../../src/api/contract/content.ts';

export interface NewMessage {
  userId: bigint;
  kind: MessageKind;
  category: PushCategory;
  /** Values the text shows (decimal strings, symbols, reasons). */
  params?: Record<string, string>;
  /** The app route it opens. */
  route?: string;
  /** Unique per user and event ("withdrawal:42:paid"): a second write of it is a no-op. */
  dedupeKey?: string;
}

export interface WrittenMessage extends NewMessage {
  id: bigint;
  createdAt: Date;
}

/** Writes one message in `tx`; answers it, or undefined when its dedupe key was written before. */
export async function writeMessage(tx: Tx | Db, message: NewMessage, now: Date): Promise<WrittenMessage | undefined> {
  const rows = await tx.insert(userMessages).values({
    userId: message.userId,
    kind: message.kind,
    category: message.category,
    params: message.params ?? {},
    route: message.route ?? null,
    dedupeKey: message.dedupeKey ?? null,
    createdAt: now,
  }).onConflictDoNothing().returning({ id: userMessages.id });
  if (rows.length === 0) return undefined;
  return { ...message, id: rows[0]!.id, createdAt: now };
}

/** Unread internal messages of a user (the badge on My). */
export async function unreadMessageCount(db: Db, userId: bigint): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(userMessages)
    .where(sql`${userMessages.userId} = ${userId} and ${userMessages.readAt} is null`);
  return Number(row?.n ?? 0);
}

/**
 * What happens to written messages after their transaction commits: the realtime notice to the
 * user's open app and the push to the user's subscriptions (server/domain/push). Set by the app.
 */
export interface MessageDelivery {
  deliver(messages: readonly WrittenMessage[]): void;
}
