// How an account is named and reached: an e-mail, a phone number (with its country code) or a
// guest name is normalised to the stored form and the condition that finds the account, and a
// known account's own address is where its codes and notices go. This is the bottom of identity/:
// registration, the password login, two factor, notices and the withdrawal password all ask it.
import { and, eq, type SQL } from 'drizzle-orm';
import type { AccountType } from '../../../../src/api/contract/accounts.ts';
import { users } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { badRequest } from '../../../lib/errors.ts';
import type { CodeDeps, CodeTarget } from '../../kernel/codes.ts';
import { normalisePhone, type NormalisedPhone } from '../../kernel/phoneNumbers.ts';

export type AccountDeps = CodeDeps;
export type UserRow = typeof users.$inferSelect;

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const phonePattern = /^[0-9]{4,15}$/;

export interface Identity { target: CodeTarget; where: SQL; phone?: NormalisedPhone }

/**
 * Normalises an e-mail or phone account to the stored form and the condition that finds it:
 * e-mail in lower case without the root dot of its domain ("a@b.com." is "a@b.com"), phone in
 * E.164 (phoneNumbers.ts).
 */
export function identify(accountType: AccountType, account: string, countryCode?: string): Identity {
  if (accountType === 'email') {
    const email = account.trim().toLowerCase().replace(/\.+$/, '');
    if (!emailPattern.test(email) || email.length > 254) {
      throw badRequest('invalid_request', 'Please enter a valid e-mail address.');
    }
    return { target: { channel: 'email', target: email, address: email }, where: eq(users.email, email) };
  }
  if (!countryCode) throw badRequest('invalid_request', 'Please choose the country code of the phone number.');
  const phone = normalisePhone(account, countryCode);
  if (!phone) throw badRequest('invalid_request', 'Please enter a valid phone number.');
  return {
    target: { channel: 'sms', target: `+${phone.countryCode} ${phone.nationalNumber}`, address: phone.e164 },
    where: and(eq(users.phone, phone.nationalNumber), eq(users.phoneCountryCode, phone.countryCode))!,
    phone,
  };
}

/** Guest names are stored and compared in lower case: "Bob" and "bob" are one account. */
export const guestName = (account: string) => account.trim().toLowerCase();

/**
 * Resolves what a password-login form sends: an e-mail, a phone number (with country code) or a
 * guest name. `key` names the account the way it is looked up, so every spelling of one account
 * (case, spaces, trunk prefix) shares one throttle.
 */
export function identifyLogin(account: string, countryCode?: string): { where: SQL; key: string } {
  const trimmed = account.trim();
  if (trimmed.includes('@')) return loginIdentity(identify('email', trimmed));
  if (phonePattern.test(trimmed) && countryCode) return loginIdentity(identify('phone', trimmed, countryCode));
  return { where: eq(users.username, guestName(trimmed)), key: `guest:${guestName(trimmed)}` };
}

export const loginIdentity = (identity: Identity) => ({ where: identity.where, key: `${identity.target.channel}:${identity.target.target}` });

export async function findUser(db: Executor, where: SQL): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(where).limit(1);
  return row;
}

/** Where the user's codes go: their e-mail, else their phone. A guest account has neither. */
export function contactOf(user: UserRow, channel: 'email' | 'sms'): CodeTarget | undefined {
  if (channel === 'email' && user.email) return { channel: 'email', target: user.email, address: user.email };
  if (channel === 'sms' && user.phone && user.phoneCountryCode) {
    const phone = normalisePhone(user.phone, user.phoneCountryCode);
    if (phone) return { channel: 'sms', target: `+${phone.countryCode} ${phone.nationalNumber}`, address: phone.e164 };
  }
  return undefined;
}
