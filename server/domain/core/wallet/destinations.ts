// Where a user's withdrawals go: bank cards and chain addresses, bound by the user and scoped to
// them (another user's id is simply not found). A chain address must be one the wallet offers
// withdrawals on (a known currency and network) and valid for that network (addresses.ts); it is
// stored in its canonical spelling. A card number keeps digits and capital letters only, and the
// user's own list shows its last four characters. On an account with Google Authenticator bound,
// adding or changing one needs the authenticator's code (issue 18), used in the transaction that
// writes it, so a stolen session or mailbox alone cannot redirect the user's withdrawals.
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { AddDestinationBody, Destination } from '../../../../src/api/contract/withdrawals.ts';
import { users, withdrawalDestinations } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import type { CodeDeps } from '../../kernel/codes.ts';
import { requireSecondFactorIn } from '../identity/twoFactor.ts';
import { AppError, badRequest, notFound } from '../../../lib/errors.ts';
import { checkAddress } from './addresses.ts';
import { requireNetwork } from './currencies.ts';

/** Destinations one user may keep: far above honest use, and a bound on what a list answers. */
export const destinationsPerUserMax = 20;

export type DestinationRow = typeof withdrawalDestinations.$inferSelect;

const addressMessages = {
  address_invalid: 'This is not a valid address for the chosen network. Please check it.',
  address_wrong_network: 'This address belongs to another network. Please choose the network it was made for.',
} as const;

/** "6222 0212-3456 7890" → "6222021234567890"; IBANs in capitals. 8 to 34 characters remain. */
function normaliseCardNumber(text: string): string {
  const compact = text.replace(/[\s-]/g, '').toUpperCase();
  if (!/^[0-9A-Z]{8,34}$/.test(compact) || !/[0-9]/.test(compact)) {
    throw badRequest('card_number_invalid', 'The card or account number must be 8 to 34 digits (or an IBAN).');
  }
  return compact;
}

function nonBlank(text: string, field: string): string {
  const trimmed = text.trim();
  if (trimmed === '') throw badRequest('invalid_request', `The ${field} must not be blank.`);
  return trimmed;
}

/** The columns of a destination as the body describes it, checked and normalised. */
async function fieldsOf(db: Executor, body: AddDestinationBody) {
  if (body.type === 'bank') {
    return {
      type: 'bank' as const, bankName: nonBlank(body.bankName, 'bank name'), realName: nonBlank(body.realName, 'name'),
      cardNumber: normaliseCardNumber(body.cardNumber), currency: null, network: null, address: null,
    };
  }
  const { network } = await requireNetwork(db, body.currency, body.network);
  const checked = checkAddress(network.network, body.address);
  if (!checked.ok) {
    if (checked.refusal === 'network_unknown') {
      throw notFound('network_unknown', `Withdrawals to ${body.network} addresses are not supported.`);
    }
    throw new AppError(400, checked.refusal, addressMessages[checked.refusal], { network: body.network });
  }
  return {
    type: 'chain' as const, bankName: null, realName: null, cardNumber: null,
    currency: body.currency, network: network.network, address: checked.address,
  };
}

export const maskCardNumber = (cardNumber: string | null) => (cardNumber === null ? null : `•••• ${cardNumber.slice(-4)}`);

export function toDestination(row: DestinationRow): Destination {
  return {
    id: row.id.toString(), type: row.type as Destination['type'], bankName: row.bankName, realName: row.realName,
    cardNumber: maskCardNumber(row.cardNumber), currency: row.currency, network: row.network, address: row.address,
    createTime: row.createdAt.getTime(), updateTime: row.updatedAt.getTime(),
  };
}

export async function addDestination(deps: CodeDeps, userId: bigint, body: AddDestinationBody): Promise<Destination> {
  const { db, clock } = deps;
  const fields = await fieldsOf(db, body);
  return db.transaction(async (tx) => {
    // The count and the insert under the user's row lock: two adds at once cannot pass the limit.
    await tx.execute(sql`select 1 from ${users} where ${users.id} = ${String(userId)}::bigint for update`);
    const [{ total }] = await tx.select({ total: count() }).from(withdrawalDestinations)
      .where(eq(withdrawalDestinations.userId, userId));
    if (total >= destinationsPerUserMax) {
      throw badRequest('destinations_too_many', `At most ${destinationsPerUserMax} payout accounts can be kept. Please edit one instead.`);
    }
    await requireSecondFactorIn(deps, tx, userId, body);
    const now = clock.now();
    const [row] = await tx.insert(withdrawalDestinations).values({ userId, ...fields, createdAt: now, updatedAt: now }).returning();
    return toDestination(row);
  });
}

/** Replaces a destination's fields; only its owner finds it. Requests already made keep their copy. */
export async function editDestination(deps: CodeDeps, userId: bigint, id: bigint, body: AddDestinationBody): Promise<Destination> {
  const { db, clock } = deps;
  const fields = await fieldsOf(db, body);
  return db.transaction(async (tx) => {
    const [row] = await tx.update(withdrawalDestinations).set({ ...fields, updatedAt: clock.now() })
      .where(and(eq(withdrawalDestinations.id, id), eq(withdrawalDestinations.userId, userId))).returning();
    if (!row) throw destinationNotFound();
    await requireSecondFactorIn(deps, tx, userId, body);
    return toDestination(row);
  });
}

export const destinationNotFound = () => notFound('destination_not_found', 'This payout account was not found.');

export async function listDestinations(db: Executor, userId: bigint): Promise<Destination[]> {
  const rows = await db.select().from(withdrawalDestinations).where(eq(withdrawalDestinations.userId, userId))
    .orderBy(desc(withdrawalDestinations.id)).limit(destinationsPerUserMax);
  return rows.map(toDestination);
}

/** One of the user's own destinations, or undefined (another user's id included). */
export async function findOwnDestination(db: Executor, userId: bigint, id: bigint): Promise<DestinationRow | undefined> {
  const [row] = await db.select().from(withdrawalDestinations)
    .where(and(eq(withdrawalDestinations.id, id), eq(withdrawalDestinations.userId, userId))).limit(1);
  return row;
}

export async function hasDestination(db: Executor, userId: bigint): Promise<boolean> {
  const [row] = await db.select({ id: withdrawalDestinations.id }).from(withdrawalDestinations)
    .where(eq(withdrawalDestinations.userId, userId)).limit(1);
  return row !== undefined;
}
