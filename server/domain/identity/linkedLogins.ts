// The wallets and OpenID identities that log in to an account (issue 11): listed on the security
// page, and unlinked there. An account must keep a way in: the last wallet or identity of an
// account without a password login (one made by a wallet or a provider: no e-mail, phone or user
// name) and without a passkey cannot be removed (last_login_method).
import { and, count, eq } from 'drizzle-orm';
import type { LinkedLoginsResult, UnlinkLoginBody } from '../../../src/api/contract/security.ts';
import type { Executor } from '../../db/client.ts';
import { userOidcIdentities, userPasskeys, userWallets, users } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { OidcDeps } from './oidc.ts';

async function hasPasswordLogin(db: Executor, userId: bigint) {
  const [user] = await db.select({ email: users.email, phone: users.phone, username: users.username }).from(users)
    .where(eq(users.id, userId)).limit(1);
  return Boolean(user && (user.email || user.phone || user.username));
}

export async function linkedLogins(deps: Pick<OidcDeps, 'db' | 'oidcProviders'>, userId: bigint): Promise<LinkedLoginsResult> {
  const wallets = await deps.db.select().from(userWallets).where(eq(userWallets.userId, userId)).orderBy(userWallets.createdAt);
  const identities = await deps.db.select().from(userOidcIdentities).where(eq(userOidcIdentities.userId, userId))
    .orderBy(userOidcIdentities.id);
  const nameOf = (id: string) => deps.oidcProviders.find((provider) => provider.id === id)?.name ?? id;
  return {
    wallets: wallets.map((wallet) => ({
      address: wallet.address, chainId: wallet.chainId, createdAt: wallet.createdAt.getTime(), lastUsedAt: wallet.lastUsedAt?.getTime() ?? null,
    })),
    identities: identities.map((identity) => ({
      id: identity.id.toString(), provider: identity.provider, providerName: nameOf(identity.provider), email: identity.email,
      createdAt: identity.createdAt.getTime(), lastUsedAt: identity.lastUsedAt?.getTime() ?? null,
    })),
    hasPasswordLogin: await hasPasswordLogin(deps.db, userId),
  };
}

/** Removes one of the user's own wallets or identities; another user's is not found. */
export async function unlinkLogin(deps: Pick<OidcDeps, 'db'>, userId: bigint, body: UnlinkLoginBody) {
  if ((body.wallet === undefined) === (body.identityId === undefined)) {
    throw badRequest('invalid_request', 'Name one wallet or one linked login to remove.');
  }
  await deps.db.transaction(async (tx) => {
    // Serialises unlinks of one account, so two at once cannot both remove "not the last" way in.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const removed = body.wallet !== undefined
      ? await tx.delete(userWallets).where(and(eq(userWallets.address, body.wallet.toLowerCase()), eq(userWallets.userId, userId)))
        .returning({ userId: userWallets.userId })
      : await tx.delete(userOidcIdentities)
        .where(and(eq(userOidcIdentities.id, BigInt(body.identityId!)), eq(userOidcIdentities.userId, userId)))
        .returning({ userId: userOidcIdentities.userId });
    if (removed.length === 0) throw notFound('linked_login_not_found', 'This login is not linked to your account.');
    if (await hasPasswordLogin(tx, userId)) return;
    const [wallets] = await tx.select({ n: count() }).from(userWallets).where(eq(userWallets.userId, userId));
    const [identities] = await tx.select({ n: count() }).from(userOidcIdentities).where(eq(userOidcIdentities.userId, userId));
    const [passkeys] = await tx.select({ n: count() }).from(userPasskeys).where(eq(userPasskeys.userId, userId));
    if (wallets.n + identities.n + passkeys.n === 0) {
      throw conflict('last_login_method', 'This is the only way to log in to your account: link another one before removing it.');
    }
  });
}
