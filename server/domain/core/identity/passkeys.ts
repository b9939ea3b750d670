// Passkeys (WebAuthn, issue 11): a logged-in user registers passkeys, lists and removes them; anyone
// logs in with one (discoverable credentials: the authenticator names the account). Checked by
// @simplewebauthn/server against the relying party of services.publicOrigin (its hostname is the
// RP ID, the origin itself the only accepted origin), user verification required.
//
// Challenges are single use: each is taken (marked used) by one atomic update before the answer is
// verified, and stays used whatever the verification says, so an answer can never be replayed or
// retried against the same challenge. A credential's signature counter only moves forward
// (@simplewebauthn refuses a counter that did not grow, unless the authenticator keeps none, and
// the update is conditional on the counter read). A counter that went backwards under a valid
// signature means the credential may have been copied: the passkey is flagged (refused from then on,
// shown as flagged in the list) and the owner told. Adding a passkey needs a fresh proof
// (stepUp.ts) at registerOptions, whose challenge then carries it to the registration. Every login
// opens its session through startSession; a failed login on a known credential goes to the owner's
// login history.
import { createHmac, randomBytes } from 'node:crypto';
import { and, asc, count, eq, gt, isNull } from 'drizzle-orm';
import {
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
  type AuthenticationResponseJSON, type AuthenticatorTransport, type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type {
  FreshProof, PasskeyInfo, PasskeyLoginBody, PasskeyOptions, PasskeyRegisterBody,
} from '../../../../src/api/contract/security.ts';
import type { Executor } from '../../../db/client.ts';
import { userPasskeys, users, webauthnChallenges } from '../../../db/schema.ts';
import { AppError, badRequest, notFound, unauthorized } from '../../../lib/errors.ts';
import type { CodeDeps } from '../../kernel/codes.ts';
import { accountNotices, sendAccountNotice } from './accountNotice.ts';
import { recordFailedLogin, startSession, tokenOrSecondStep, type LoginOrigin } from './login.ts';
import { withFreshProof } from './stepUp.ts';

export interface PasskeyDeps extends CodeDeps {
  /** Where users open the app: the only accepted origin, its hostname the relying party id. */
  publicOrigin: string;
}

const rpName = 'Bourse';
const challengeTtlMs = 5 * 60_000;
const hourMs = 3_600_000;
/** At most this many passkeys per account. */
export const maxPasskeysPerUser = 10;

const rpId = (deps: PasskeyDeps) => new URL(deps.publicOrigin).hostname;

const challengeInvalid = () => badRequest('passkey_challenge_invalid',
  'This passkey request has expired or was already used. Please try again.');
const verificationFailed = (message = 'The passkey could not be verified. Please try again.') =>
  badRequest('passkey_verification_failed', message);

/**
 * The WebAuthn user handle of an account: opaque (an HMAC of the id under the server's pepper),
 * stable, so an authenticator keeps one passkey per account and site, and it names no account.
 */
export const userHandle = (deps: Pick<CodeDeps, 'pepper'>, userId: bigint) =>
  createHmac('sha256', deps.pepper).update(`webauthn-user:${userId}`).digest().subarray(0, 32);

async function storeChallenge(deps: PasskeyDeps, challenge: string, purpose: 'register' | 'login', userId?: bigint,
  db: Executor = deps.db) {
  const id = randomBytes(18).toString('base64url');
  const now = deps.clock.now();
  await db.insert(webauthnChallenges).values({
    id, challenge, purpose, userId, expiresAt: new Date(now.getTime() + challengeTtlMs), createdAt: now,
  });
  return id;
}

/** Takes a challenge once: the one update that marks it used returns it; used, expired or foreign → refused. */
async function takeChallenge(deps: PasskeyDeps, id: string, purpose: 'register' | 'login', userId?: bigint) {
  const now = deps.clock.now();
  const conditions = [
    eq(webauthnChallenges.id, id), eq(webauthnChallenges.purpose, purpose), isNull(webauthnChallenges.usedAt),
    gt(webauthnChallenges.expiresAt, now),
  ];
  if (userId !== undefined) conditions.push(eq(webauthnChallenges.userId, userId));
  const [row] = await deps.db.update(webauthnChallenges).set({ usedAt: now }).where(and(...conditions))
    .returning({ challenge: webauthnChallenges.challenge });
  if (!row) throw challengeInvalid();
  return row.challenge;
}

/**
 * Options to create a passkey for the logged-in user (the device offers none it already holds),
 * once `proof` passes (stepUp.ts): the challenge is stored in the transaction that spends it.
 */
export async function registerOptions(deps: PasskeyDeps, userId: bigint, proof: FreshProof = {}, callerIp = ''): Promise<PasskeyOptions> {
  await deps.limiter.hit(`passkey-register-options:${userId}`, deps.limits.loginAttemptsPerIpPerMinute, 60_000);
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw unauthorized();
  const existing = await deps.db.select({ id: userPasskeys.credentialId, transports: userPasskeys.transports })
    .from(userPasskeys).where(eq(userPasskeys.userId, userId));
  if (existing.length >= maxPasskeysPerUser) {
    throw badRequest('invalid_request', `An account can have at most ${maxPasskeysPerUser} passkeys. Remove one first.`);
  }
  const account = user.email ?? (user.phone ? `+${user.phoneCountryCode} ${user.phone}` : user.username ?? `user ${user.id}`);
  const options = await generateRegistrationOptions({
    rpName, rpID: rpId(deps), userName: account, userDisplayName: account,
    userID: new Uint8Array(userHandle(deps, userId)),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: (row.transports as string[] | null) ?? undefined })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: challengeTtlMs,
  });
  const challengeId = await withFreshProof(deps, userId, proof, callerIp,
    (tx) => storeChallenge(deps, options.challenge, 'register', userId, tx));
  return { challengeId, options: { ...options } };
}

/** Verifies a new passkey against the user's registration challenge and keeps it. */
export async function registerPasskey(deps: PasskeyDeps, userId: bigint, body: PasskeyRegisterBody): Promise<PasskeyInfo> {
  const expectedChallenge = await takeChallenge(deps, body.challengeId, 'register', userId);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: body.response as unknown as RegistrationResponseJSON,
      expectedChallenge, expectedOrigin: deps.publicOrigin, expectedRPID: rpId(deps), requireUserVerification: true,
    });
  } catch {
    throw verificationFailed();
  }
  if (!verified.verified) throw verificationFailed();
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  const name = body.name?.trim() || (credentialDeviceType === 'multiDevice' ? 'Synced passkey' : 'Passkey');
  const now = deps.clock.now();
  const info = await deps.db.transaction(async (tx) => {
    const [{ n }] = await tx.select({ n: count() }).from(userPasskeys).where(eq(userPasskeys.userId, userId));
    if (n >= maxPasskeysPerUser) {
      throw badRequest('invalid_request', `An account can have at most ${maxPasskeysPerUser} passkeys. Remove one first.`);
    }
    const [row] = await tx.insert(userPasskeys).values({
      credentialId: credential.id, userId, publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: BigInt(credential.counter), transports: credential.transports ?? null,
      deviceType: credentialDeviceType, backedUp: credentialBackedUp, name, createdAt: now,
    }).onConflictDoNothing().returning();
    if (!row) throw verificationFailed('This passkey is already registered.');
    return toInfo(row);
  });
  await sendAccountNotice(deps, deps.db, userId, accountNotices.passkeyAdded(info.name, now));
  return info;
}

type PasskeyRow = typeof userPasskeys.$inferSelect;

function toInfo(row: PasskeyRow): PasskeyInfo {
  return {
    id: row.credentialId, name: row.name ?? 'Passkey', createdAt: row.createdAt.getTime(),
    lastUsedAt: row.lastUsedAt?.getTime() ?? null, backedUp: row.backedUp,
    deviceType: row.deviceType === 'multiDevice' ? 'multiDevice' : 'singleDevice',
    flaggedAt: row.flaggedAt?.getTime() ?? null,
  };
}

export async function listPasskeys(deps: PasskeyDeps, userId: bigint): Promise<PasskeyInfo[]> {
  const rows = await deps.db.select().from(userPasskeys).where(eq(userPasskeys.userId, userId))
    .orderBy(asc(userPasskeys.createdAt), asc(userPasskeys.credentialId));
  return rows.map(toInfo);
}

/** Removes one of the user's passkeys; another user's id (or an unknown one) is not found. */
export async function removePasskey(deps: PasskeyDeps, userId: bigint, credentialId: string) {
  const removed = await deps.db.delete(userPasskeys)
    .where(and(eq(userPasskeys.credentialId, credentialId), eq(userPasskeys.userId, userId)))
    .returning({ id: userPasskeys.credentialId, name: userPasskeys.name });
  if (removed.length === 0) throw notFound('passkey_not_found', 'This passkey does not exist or was already removed.');
  await sendAccountNotice(deps, deps.db, userId, accountNotices.passkeyRemoved(removed[0].name ?? 'Passkey', deps.clock.now()));
}

/** Options to log in with any passkey of this site (discoverable credentials: no allow list). */
export async function loginOptions(deps: PasskeyDeps, callerIp: string): Promise<PasskeyOptions> {
  await deps.limiter.hit(`passkey-login-options-ip:${callerIp}`, deps.limits.loginAttemptsPerIpPerMinute, 60_000);
  const options = await generateAuthenticationOptions({ rpID: rpId(deps), userVerification: 'required', timeout: challengeTtlMs });
  return { challengeId: await storeChallenge(deps, options.challenge, 'login'), options: { ...options } };
}

/**
 * Logs in with a passkey: limits, the challenge taken, the credential found by its id, the
 * assertion verified (signature, challenge, origin, RP id, user verification, counter), and the
 * counter and last use written with the new session in one transaction. Failed assertions count
 * against the caller's address; a success gives its failure back.
 */
export async function passkeyLogin(deps: PasskeyDeps, body: PasskeyLoginBody, origin: LoginOrigin): Promise<string> {
  const { limiter, limits } = deps;
  await limiter.hit(`login-ip:${origin.callerIp}`, limits.loginAttemptsPerIpPerMinute, 60_000);
  await limiter.hit(`passkey-fail-ip:${origin.callerIp}`, limits.loginFailuresPerIpPerHour, hourMs);
  const expectedChallenge = await takeChallenge(deps, body.challengeId, 'login');
  const [stored] = await deps.db.select().from(userPasskeys).where(eq(userPasskeys.credentialId, body.response.id)).limit(1);
  if (!stored) throw badRequest('passkey_unknown', 'This passkey is not registered with Bourse (or was removed). Log in another way and add it in the security centre.');
  const refuse = async (): Promise<never> => {
    await recordFailedLogin(deps, stored.userId, 'passkey', origin);
    throw verificationFailed();
  };
  if (stored.flaggedAt) {
    await recordFailedLogin(deps, stored.userId, 'passkey', origin);
    throw verificationFailed('This passkey may have been copied and is no longer accepted. Log in another way and remove it in Account security.');
  }
  const response = body.response as unknown as AuthenticationResponseJSON;
  if (response.response.userHandle !== undefined
    && response.response.userHandle !== userHandle(deps, stored.userId).toString('base64url')) {
    return refuse();
  }
  let newCounter: number;
  let backedUp: boolean;
  try {
    const verified = await verifyAuthenticationResponse({
      response, expectedChallenge, expectedOrigin: deps.publicOrigin, expectedRPID: rpId(deps), requireUserVerification: true,
      credential: {
        id: stored.credentialId, publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')),
        counter: Number(stored.counter), transports: (stored.transports as AuthenticatorTransport[] | null) ?? undefined,
      },
    });
    if (!verified.verified) return await refuse();
    newCounter = verified.authenticationInfo.newCounter;
    backedUp = verified.authenticationInfo.credentialBackedUp;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (await counterWentBack(deps, response, expectedChallenge, stored)) {
      await flagCopiedPasskey(deps, stored);
    }
    return refuse();
  }
  const token = await deps.db.transaction(async (tx) => {
    const updated = await tx.update(userPasskeys)
      .set({ counter: BigInt(newCounter), backedUp, lastUsedAt: deps.clock.now() })
      .where(and(eq(userPasskeys.credentialId, stored.credentialId), eq(userPasskeys.counter, stored.counter)))
      .returning({ userId: userPasskeys.userId });
    // Another login with this credential moved the counter (or removed it) meanwhile.
    if (updated.length !== 1) throw verificationFailed();
    return startSession(deps, tx, stored.userId, 'passkey', origin);
  });
  await limiter.release(`passkey-fail-ip:${origin.callerIp}`);
  // A passkey with user verification is two factors already: startSession answers a token.
  return tokenOrSecondStep(token);
}

/**
 * Whether a refused assertion carries a valid signature whose counter is not above the stored one:
 * verified again as if no counter were stored, so only the holder of the key (the device or a copy
 * of it) can get a passkey flagged, never someone who merely knows its id.
 */
async function counterWentBack(deps: PasskeyDeps, response: AuthenticationResponseJSON, expectedChallenge: string,
  stored: PasskeyRow): Promise<boolean> {
  if (stored.counter === 0n) return false;
  try {
    const again = await verifyAuthenticationResponse({
      response, expectedChallenge, expectedOrigin: deps.publicOrigin, expectedRPID: rpId(deps), requireUserVerification: true,
      credential: {
        id: stored.credentialId, publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')), counter: 0,
        transports: (stored.transports as AuthenticatorTransport[] | null) ?? undefined,
      },
    });
    return again.verified && BigInt(again.authenticationInfo.newCounter) <= stored.counter;
  } catch {
    return false;
  }
}

/** Flags the passkey once and tells its owner (a second backwards counter adds no second notice). */
async function flagCopiedPasskey(deps: PasskeyDeps, stored: PasskeyRow) {
  const now = deps.clock.now();
  const flagged = await deps.db.update(userPasskeys).set({ flaggedAt: now })
    .where(and(eq(userPasskeys.credentialId, stored.credentialId), isNull(userPasskeys.flaggedAt)))
    .returning({ name: userPasskeys.name });
  if (flagged.length === 1) {
    await sendAccountNotice(deps, deps.db, stored.userId, accountNotices.passkeyFlagged(flagged[0].name ?? 'Passkey', now));
  }
}
