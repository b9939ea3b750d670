// The wallets and OpenID identities that log in to an account (issue 11): listed on the security
// page, and unlinked there. An account must keep a way in: the last wallet or identity of an
// account without a password login (one made by a wallet or a provider: no e-mail, phone or user
// name) and without a passkey cannot be removed (last_login_method). Every removal tells the owner.
//
// After a password change or reset the app lists every other way in (waysIn) and offers to remove
// them all in one step (removeOtherWaysIn): whoever stole a session may have added a passkey, a
// wallet or a provider login meanwhile, which a new password alone would leave in place.
import { and, count, eq, gt, isNull, ne } from 'drizzle-orm';
import type { FreshProof, LinkedLoginsResult, UnlinkLoginBody, WaysInRemoved, WaysInResult } from '../../../../src/api/contract/security.ts';
import type { Executor } from '../../../db/client.ts';
import { sessions, userOidcIdentities, userPasskeys, userWallets, users } from '../../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../../lib/errors.ts';
import type { ActiveSession } from '../../kernel/sessions.ts';
import { accountNotices, sendAccountNotice } from './accountNotice.ts';
import type { OidcDeps } from './oidc.ts';
import { withFreshProof } from './stepUp.ts';

async function hasPasswordLogin(db: Executor, userId: bigint) {
  const [user] = await db.select({ email: users.email, phone: users.phone, username: users.username }).from(users)
    .where(eq(users.id, userId)).limit(1);
  return Boolean(user && (user.email || user.phone || user.username));
}

const nameOf = (deps: Pick<OidcDeps, 'oidcProviders'>, id: string) => deps.oidcProviders.find((provider) => provider.id === id)?.name ?? id;

export async function linkedLogins(deps: Pick<OidcDeps, 'db' | 'oidcProviders'>, userId: bigint): Promise<LinkedLoginsResult> {
  const wallets = await deps.db.select().from(userWallets).where(eq(userWallets.userId, userId)).orderBy(userWallets.createdAt);
  const identities = await deps.db.select().from(userOidcIdentities).where(eq(userOidcIdentities.userId, userId))
    .orderBy(userOidcIdentities.id);
  return {
    wallets: wallets.map((wallet) => ({
      address: wallet.address, chainId: wallet.chainId, createdAt: wallet.createdAt.getTime(), lastUsedAt: wallet.lastUsedAt?.getTime() ?? null,
    })),
    identities: identities.map((identity) => ({
      id: identity.id.toString(), provider: identity.provider, providerName: nameOf(deps, identity.provider), email: identity.email,
      createdAt: identity.createdAt.getTime(), lastUsedAt: identity.lastUsedAt?.getTime() ?? null,
    })),
    hasPasswordLogin: await hasPasswordLogin(deps.db, userId),
  };
}

/** Removes one of the user's own wallets or identities; another user's is not found. */
export async function unlinkLogin(deps: Pick<OidcDeps, 'db' | 'sender' | 'clock' | 'oidcProviders'>, userId: bigint, body: UnlinkLoginBody) {
  if ((body.wallet === undefined) === (body.identityId === undefined)) {
    throw badRequest('invalid_request', 'Name one wallet or one linked login to remove.');
  }
  const removedName = await deps.db.transaction(async (tx) => {
    // Serialises unlinks of one account, so two at once cannot both remove "not the last" way in.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const removed = body.wallet !== undefined
      ? await tx.delete(userWallets).where(and(eq(userWallets.address, body.wallet.toLowerCase()), eq(userWallets.userId, userId)))
        .returning({ userId: userWallets.userId })
      : await tx.delete(userOidcIdentities)
        .where(and(eq(userOidcIdentities.id, BigInt(body.identityId!)), eq(userOidcIdentities.userId, userId)))
        .returning({ userId: userOidcIdentities.userId, provider: userOidcIdentities.provider });
    if (removed.length === 0) throw notFound('linked_login_not_found', 'This login is not linked to your account.');
    const removedName: { wallet: string } | { identity: string } = body.wallet !== undefined ? { wallet: body.wallet.toLowerCase() }
      : { identity: nameOf(deps, (removed[0] as unknown as { provider: string }).provider) };
    if (await hasPasswordLogin(tx, userId)) return removedName;
    const [wallets] = await tx.select({ n: count() }).from(userWallets).where(eq(userWallets.userId, userId));
    const [identities] = await tx.select({ n: count() }).from(userOidcIdentities).where(eq(userOidcIdentities.userId, userId));
    const [passkeys] = await tx.select({ n: count() }).from(userPasskeys).where(eq(userPasskeys.userId, userId));
    if (wallets.n + identities.n + passkeys.n === 0) {
      throw conflict('last_login_method', 'This is the only way to log in to your account: link another one before removing it.');
    }
    return removedName;
  });
  const now = deps.clock.now();
  await sendAccountNotice(deps, deps.db, userId, 'wallet' in removedName
    ? accountNotices.walletUnlinked(removedName.wallet, now) : accountNotices.identityUnlinked(removedName.identity, now));
}

const otherLiveSessions = (deps: Pick<OidcDeps, 'clock'>, session: ActiveSession) => and(eq(sessions.userId, session.userId),
  ne(sessions.id, session.sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, deps.clock.now()));

/** Every way into the account besides the password and the caller's session, counted. */
export async function waysIn(deps: Pick<OidcDeps, 'db' | 'clock'>, session: ActiveSession): Promise<WaysInResult> {
  const { userId } = session;
  const [passkeys] = await deps.db.select({ n: count() }).from(userPasskeys).where(eq(userPasskeys.userId, userId));
  const [wallets] = await deps.db.select({ n: count() }).from(userWallets).where(eq(userWallets.userId, userId));
  const [identities] = await deps.db.select({ n: count() }).from(userOidcIdentities).where(eq(userOidcIdentities.userId, userId));
  const [others] = await deps.db.select({ n: count() }).from(sessions).where(otherLiveSessions(deps, session));
  return {
    passkeys: passkeys.n, wallets: wallets.n, identities: identities.n, otherSessions: others.n,
    hasPasswordLogin: await hasPasswordLogin(deps.db, userId),
  };
}

/**
 * Removes every passkey, wallet and OpenID identity of the account and ends its other sessions, in
 * one transaction after a fresh proof: the password is then the only way in. An account without a
 * password login keeps them (last_login_method). The owner's own action: a notice, no audit.
 */
export async function removeOtherWaysIn(deps: OidcDeps, session: ActiveSession, proof: FreshProof, callerIp: string): Promise<WaysInRemoved> {
  const { userId } = session;
  if (!(await hasPasswordLogin(deps.db, userId))) {
    throw conflict('last_login_method', 'Your account has no password login: these are its only ways in.');
  }
  const removed = await withFreshProof(deps, userId, proof, callerIp, async (tx) => {
    const passkeys = await tx.delete(userPasskeys).where(eq(userPasskeys.userId, userId)).returning({ id: userPasskeys.credentialId });
    const wallets = await tx.delete(userWallets).where(eq(userWallets.userId, userId)).returning({ address: userWallets.address });
    const identities = await tx.delete(userOidcIdentities).where(eq(userOidcIdentities.userId, userId))
      .returning({ id: userOidcIdentities.id });
    const ended = await tx.update(sessions).set({ revokedAt: deps.clock.now() }).where(otherLiveSessions(deps, session))
      .returning({ id: sessions.id });
    return { passkeys: passkeys.length, wallets: wallets.length, identities: identities.length, otherSessions: ended.length };
  });
  await sendAccountNotice(deps, deps.db, userId, accountNotices.otherWaysInRemoved(deps.clock.now()));
  return removed;
}
