// Notices about an account's own security (ASVS 5.0 V6.3.7): a login from a new device, Google
// Authenticator bound, unbound or reset by support, a passkey, OpenID login or wallet added or
// removed, a passkey flagged as possibly copied, every other way in removed. Each goes to the
// account's e-mail, or else its phone, through the message sender, and carries the time in UTC and
// what to do if it was not the owner. An account with neither (a wallet or guest account) has no
// address to tell. A notice that cannot be delivered never undoes what it tells of.
import { eq } from 'drizzle-orm';
import { users } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import type { MessageSender, OutgoingMessage } from '../../kernel/delivery.ts';
import { contactOf } from './contacts.ts';

export interface NoticeDeps { sender: MessageSender }

/** "2026-06-01 04:00 UTC". */
export const utcMinute = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export async function sendAccountNotice(deps: NoticeDeps, db: Executor, userId: bigint, text: string): Promise<void> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  const contact = user && (contactOf(user, 'email') ?? contactOf(user, 'sms'));
  const message: OutgoingMessage | undefined = contact && { to: contact.address, channel: contact.channel, code: '', text };
  if (!message) return;
  try {
    await deps.sender.send(message);
  } catch {
    // Undeliverable: what happened stands (and is in the login history or audit trail).
  }
}

const notYou = 'If this was not you, change your password at once and end the other sessions in Account security.';

/** The texts of the notices, in one place. */
export const accountNotices = {
  newDevice: (device: string, ip: string, at: Date) => `New login to your Bourse account from ${device} at ${ip}, ${utcMinute(at)}. `
    + 'If this was not you, end the session in Account security and change your password.',
  googleBound: (at: Date) => `Google Authenticator was bound to your Bourse account at ${utcMinute(at)}; your other sessions were ended. ${notYou}`,
  googleUnbound: (at: Date) => `Google Authenticator was removed from your Bourse account at ${utcMinute(at)}. ${notYou}`,
  googleReset: (at: Date, reason: string) => `Support removed Google Authenticator from your Bourse account at ${utcMinute(at)} `
    + `(${reason}); all your sessions were ended. Log in with your password and bind it again in Account security. `
    + 'If you did not ask for this, contact support at once.',
  passkeyAdded: (name: string, at: Date) => `A passkey "${name}" was added to your Bourse account at ${utcMinute(at)}. ${notYou}`,
  passkeyRemoved: (name: string, at: Date) => `The passkey "${name}" was removed from your Bourse account at ${utcMinute(at)}. ${notYou}`,
  passkeyFlagged: (name: string, at: Date) => `A login with your passkey "${name}" was refused at ${utcMinute(at)}: its signature `
    + 'counter went backwards, so the passkey may have been copied. It is no longer accepted; remove it in Account security, '
    + 'change your password and end the other sessions.',
  identityLinked: (provider: string, at: Date) => `A ${provider} login was linked to your Bourse account at ${utcMinute(at)}. ${notYou}`,
  identityUnlinked: (provider: string, at: Date) => `A ${provider} login was removed from your Bourse account at ${utcMinute(at)}. ${notYou}`,
  walletLinked: (address: string, at: Date) => `The wallet ${address} was linked to your Bourse account at ${utcMinute(at)}. ${notYou}`,
  walletUnlinked: (address: string, at: Date) => `The wallet ${address} was removed from your Bourse account at ${utcMinute(at)}. ${notYou}`,
  otherWaysInRemoved: (at: Date) => `Every passkey, linked login and other session of your Bourse account was removed at ${utcMinute(at)}: `
    + 'only your password opens it now. If this was not you, reset your password at once.',
};
