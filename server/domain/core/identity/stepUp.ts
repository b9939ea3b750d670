// A fresh proof before a way into the account is added or the others are removed (issue 18): a
// stolen session alone must not turn into lasting access by adding a passkey, an OpenID identity or
// a wallet. The proof travels as optional fields of the call itself (FreshProof in the contract),
// so a client written from the spec needs no extra round trip, and any code it uses is spent in the
// transaction that does the work: a refusal anywhere changes nothing and leaves the code unused.
//
// The rule, strongest factor first: an account with Google Authenticator bound proves itself with
// its code or a recovery code (neither the password nor a mailbox is enough there); any other
// account with a password login (e-mail, phone or guest name) with its password, or with a code sent
// to its own e-mail or phone (how an account made by a provider, whose password nobody knows, proves
// itself); an account with none of these (a wallet or provider account without e-mail or 2FA) has
// nothing more to show than its session, which is then enough.
import { eq } from 'drizzle-orm';
import type { FreshProof } from '../../../../src/api/contract/security.ts';
import { users } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { badRequest, unauthorized } from '../../../lib/errors.ts';
import { invalidCode, transactionWithCode } from '../../kernel/codes.ts';
import { verifyPassword } from '../../kernel/passwords.ts';
import { passwordChangeKey } from './accounts.ts';
import { contactOf, type AccountDeps, type UserRow } from './contacts.ts';
import { googleAuthBound, googleCodeRequired } from './login.ts';
import { passwordPolicy, tooManyAttempts } from './passwordLogin.ts';
import { requireSecondFactorIn } from './twoFactor.ts';

const hourMs = 3_600_000;

export const passwordRequired = () => badRequest('password_required',
  'Please confirm it is you: enter your password (or a code sent to your e-mail or phone).');
const wrongPassword = () => badRequest('credentials_invalid', 'The password is wrong.');

/** Whether anything but the session can prove the account's owner (see the rule above). */
const hasPasswordLogin = (user: UserRow) => Boolean(user.email || user.phone || user.username);

/**
 * Checks `proof` for `userId` by the rule above and runs `work` in the transaction that spends the
 * code the proof used (if any). Password guesses come from the user's password-change throttle and
 * code checks from the caller's address budget, as everywhere else.
 */
export async function withFreshProof<T>(deps: AccountDeps, userId: bigint, proof: FreshProof, callerIp: string,
  work: (tx: Executor) => Promise<T>): Promise<T> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw unauthorized();
  if (await googleAuthBound(deps.db, userId)) {
    if (!proof.googleCode && !proof.recoveryCode) throw googleCodeRequired();
    // Takes one guess of the user's code throttle and uses the code in the same transaction as the work.
    return deps.db.transaction(async (tx) => {
      await requireSecondFactorIn(deps, tx, userId, proof);
      return work(tx);
    });
  }
  if (proof.emailCode || proof.phoneCode) {
    await deps.limiter.hit(`code-check-ip:${callerIp}`, deps.limits.codeChecksPerIpPerHour, hourMs);
    const contact = contactOf(user, proof.emailCode ? 'email' : 'sms');
    if (!contact) throw invalidCode();
    return transactionWithCode(deps, { target: contact.target, purpose: 'addLogin', code: (proof.emailCode ?? proof.phoneCode)! },
      (tx) => work(tx));
  }
  if (proof.password) {
    const taken = await deps.limiter.takeAttempt(passwordChangeKey(userId), passwordPolicy(deps.limits));
    if (!taken.allowed) throw tooManyAttempts(taken.retryAfterMs);
    if (!(await verifyPassword(user.passwordHash, proof.password))) throw wrongPassword();
    await deps.limiter.reset(passwordChangeKey(userId));
    return deps.db.transaction(async (tx) => {
      // The password checked must still be the account's: a change meanwhile makes the proof stale.
      const [current] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).for('update');
      if (current?.passwordHash !== user.passwordHash) throw wrongPassword();
      return work(tx);
    });
  }
  if (hasPasswordLogin(user)) throw passwordRequired();
  return deps.db.transaction(work);
}
