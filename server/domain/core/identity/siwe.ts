// Sign-In with Ethereum (EIP-4361, issue 11). The server hands out a single-use nonce with the
// fields the message must carry (our domain and origin, a chain, five minutes of validity); the
// wallet signs the message text (personal_sign); here viem parses it and recovers the signer
// offline (an externally owned account: no RPC, so contract wallets, EIP-1271, are not accepted).
// Checks, in order, each with its own code and changing nothing: the message parses
// (siwe_message_invalid), its domain and URI are ours (siwe_domain_mismatch), its time bounds hold
// (siwe_expired), the signature recovers its address (siwe_signature_invalid), and its nonce is one
// we issued for this purpose and has not been used (siwe_nonce_invalid; expired: siwe_expired).
// The nonce is spent in the transaction that opens the session or links the wallet, so a replayed
// message finds it used. The first login of an address creates an account without e-mail, phone
// or user name (its password is random and never told: it logs in by its wallet) and links it.
import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { recoverMessageAddress } from 'viem';
import { parseSiweMessage } from 'viem/siwe';
import type { FreshProof, SiweNonceResult } from '../../../../src/api/contract/security.ts';
import type { Executor } from '../../../db/client.ts';
import { siweNonces, userWallets, users } from '../../../db/schema.ts';
import { badRequest, conflict } from '../../../lib/errors.ts';
import type { Services } from '../../kernel/services.ts';
import { newInviteCode } from './accounts.ts';
import { hashPassword } from '../../kernel/passwords.ts';
import { accountNotices, sendAccountNotice } from './accountNotice.ts';
import { startSession, tokenOrSecondStep, type LoginOrigin } from './login.ts';
import { withFreshProof } from './stepUp.ts';

export type ExternalLoginDeps = Pick<Services, 'db' | 'limits' | 'clock' | 'limiter' | 'sender' | 'pepper' | 'publicOrigin'>;

const nonceLifetimeMs = 5 * 60_000;
const minuteMs = 60_000;
const hourMs = 3_600_000;
/** Nonces one address may ask for per minute, and signed messages it may present. */
const noncesPerIpPerMinute = 30;
const attemptsPerIpPerMinute = 30;
/** Signed messages one wallet address may present per hour (anyone can write its address in a message). */
const attemptsPerAddressPerHour = 60;

const loginStatement = 'Log in to Bourse with this wallet.';
const linkStatement = 'Link this wallet to my Bourse account.';

const invalidMessage = () => badRequest('siwe_message_invalid', 'The wallet message is not a valid Sign-In with Ethereum message.');
const invalidNonce = () => badRequest('siwe_nonce_invalid', 'This wallet message was already used or was not issued here. Please try again.');
const expired = () => badRequest('siwe_expired', 'The wallet message has expired. Please try again.');

/** A new single-use nonce and the message fields around it; `linkUserId` when a logged-in user links a wallet. */
export async function siweNonce(deps: ExternalLoginDeps, callerIp: string, chainId = 1, linkUserId?: bigint): Promise<SiweNonceResult> {
  await deps.limiter.hit(`siwe-nonce-ip:${callerIp}`, noncesPerIpPerMinute, minuteMs);
  const now = deps.clock.now();
  const nonce = randomBytes(16).toString('hex');
  const expiresAt = new Date(now.getTime() + nonceLifetimeMs);
  await deps.db.insert(siweNonces).values({ nonce, linkUserId: linkUserId ?? null, expiresAt, createdAt: now });
  const origin = new URL(deps.publicOrigin);
  return {
    nonce, domain: origin.host, uri: origin.origin, chainId, version: '1',
    statement: linkUserId === undefined ? loginStatement : linkStatement,
    issuedAt: now.toISOString(), expirationTime: expiresAt.toISOString(),
  };
}

interface VerifiedMessage { address: string; chainId: number; nonce: string }

/** Every check but the nonce's, which is spent in the caller's transaction (spendNonce). */
async function verifyMessage(deps: ExternalLoginDeps, message: string, signature: string, callerIp: string): Promise<VerifiedMessage> {
  await deps.limiter.hit(`siwe-ip:${callerIp}`, attemptsPerIpPerMinute, minuteMs);
  let fields: ReturnType<typeof parseSiweMessage>;
  try {
    fields = parseSiweMessage(message);
  } catch {
    throw invalidMessage();
  }
  const { address, chainId, domain, nonce, uri, version } = fields;
  if (!address || !/^0x[0-9a-fA-F]{40}$/.test(address) || !chainId || !domain || !nonce || !uri || version !== '1'
    || !fields.issuedAt || Number.isNaN(fields.issuedAt.getTime())) {
    throw invalidMessage();
  }
  const lower = address.toLowerCase();
  await deps.limiter.hit(`siwe-address:${lower}`, attemptsPerAddressPerHour, hourMs);
  const ours = new URL(deps.publicOrigin);
  let uriOrigin: string | undefined;
  try { uriOrigin = new URL(uri).origin; } catch { uriOrigin = undefined; }
  const schemeOk = fields.scheme === undefined || `${fields.scheme}:` === ours.protocol;
  if (domain !== ours.host || uriOrigin !== ours.origin || !schemeOk) {
    throw badRequest('siwe_domain_mismatch', 'This wallet message was written for another site.');
  }
  const nowMs = deps.clock.now().getTime();
  if ((fields.expirationTime && fields.expirationTime.getTime() <= nowMs)
    || (fields.notBefore && fields.notBefore.getTime() > nowMs)) throw expired();
  let signer: string;
  try {
    signer = await recoverMessageAddress({ message, signature: signature as `0x${string}` });
  } catch {
    throw badRequest('siwe_signature_invalid', 'The wallet signature does not match the message.');
  }
  if (signer.toLowerCase() !== lower) throw badRequest('siwe_signature_invalid', 'The wallet signature does not match the message.');
  return { address: lower, chainId, nonce };
}

/** Spends the nonce in `tx`: unknown, used or issued for another purpose → siwe_nonce_invalid; past its time → siwe_expired. */
async function spendNonce(deps: ExternalLoginDeps, tx: Executor, nonce: string, linkUserId: bigint | null) {
  const now = deps.clock.now();
  const spent = await tx.update(siweNonces).set({ usedAt: now })
    .where(and(eq(siweNonces.nonce, nonce), isNull(siweNonces.usedAt), gt(siweNonces.expiresAt, now)))
    .returning({ linkUserId: siweNonces.linkUserId });
  if (spent.length === 0) {
    const [row] = await tx.select().from(siweNonces).where(eq(siweNonces.nonce, nonce)).limit(1);
    if (row && row.usedAt === null && row.expiresAt <= now) throw expired();
    throw invalidNonce();
  }
  if (spent[0].linkUserId !== linkUserId) throw invalidNonce();
}

/**
 * An account for a first external login: no e-mail (unless given: a provider's verified address
 * nobody uses), no phone, no user name; a random password nobody knows.
 */
export async function createExternalAccount(deps: ExternalLoginDeps, tx: Executor, passwordHash: string, email?: string) {
  const [user] = await tx.insert(users).values({
    email: email ?? null, passwordHash, inviteCode: await newInviteCode(tx), createdAt: deps.clock.now(),
  }).returning({ id: users.id });
  return user.id;
}

/** A hash of a random password: the account exists, but no password opens it. */
export const unusablePasswordHash = () => hashPassword(randomBytes(32).toString('base64url'));

/** Per address: new accounts created by external logins, counted like guest accounts. */
export const limitAccountCreation = (deps: ExternalLoginDeps, callerIp: string) =>
  deps.limiter.hit(`external-account-ip:${callerIp}`, deps.limits.guestCreationsPerIpPerHour, hourMs);

/** Logs in with a signed message; the address's first login creates its account. Returns the session token. */
export async function siweLogin(deps: ExternalLoginDeps, message: string, signature: string, origin: LoginOrigin): Promise<string> {
  const verified = await verifyMessage(deps, message, signature, origin.callerIp);
  const [known] = await deps.db.select({ userId: userWallets.userId }).from(userWallets)
    .where(eq(userWallets.address, verified.address)).limit(1);
  let passwordHash: string | undefined;
  if (!known) {
    await limitAccountCreation(deps, origin.callerIp);
    passwordHash = await unusablePasswordHash();
  }
  // A bound account answers google_code_required with a ticket once the nonce is spent (login.ts).
  return tokenOrSecondStep(await deps.db.transaction(async (tx) => {
    await spendNonce(deps, tx, verified.nonce, null);
    const now = deps.clock.now();
    const [wallet] = await tx.select().from(userWallets).where(eq(userWallets.address, verified.address)).limit(1);
    let userId: bigint;
    if (wallet) {
      userId = wallet.userId;
      await tx.update(userWallets).set({ lastUsedAt: now }).where(eq(userWallets.address, verified.address));
    } else {
      // Created between our look-up and this transaction by a concurrent first login: the primary key refuses the second.
      userId = await createExternalAccount(deps, tx, passwordHash ?? await unusablePasswordHash());
      await tx.insert(userWallets).values({ address: verified.address, userId, chainId: verified.chainId, lastUsedAt: now, createdAt: now });
    }
    return startSession(deps, tx, userId, 'wallet', origin);
  }));
}

/**
 * Links the signing wallet to the logged-in user (the nonce must have been asked for by that user's
 * session) once `proof` passes (stepUp.ts); the nonce and any code of the proof are spent in the
 * transaction that links, so a refusal leaves both for another try. The owner is told.
 */
export async function siweLink(deps: ExternalLoginDeps, userId: bigint, message: string, signature: string, callerIp: string,
  proof: FreshProof = {}) {
  const verified = await verifyMessage(deps, message, signature, callerIp);
  const added = await withFreshProof(deps, userId, proof, callerIp, async (tx) => {
    await spendNonce(deps, tx, verified.nonce, userId);
    const [wallet] = await tx.select().from(userWallets).where(eq(userWallets.address, verified.address)).limit(1);
    if (wallet && wallet.userId !== userId) {
      throw conflict('wallet_linked_elsewhere', 'This wallet already logs in to another account.');
    }
    if (!wallet) {
      const now = deps.clock.now();
      await tx.insert(userWallets).values({ address: verified.address, userId, chainId: verified.chainId, createdAt: now });
    }
    return !wallet;
  });
  if (added) await sendAccountNotice(deps, deps.db, userId, accountNotices.walletLinked(verified.address, deps.clock.now()));
  return { address: verified.address };
}
