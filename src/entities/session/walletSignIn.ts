// Sign-In with Ethereum in the browser (issue 11), without an Ethereum library: the injected
// wallet (EIP-1193, window.ethereum) gives the account and chain, the server gives the nonce and
// the message's fields, this file writes the EIP-4361 text and the wallet signs it (personal_sign).
import type { SiweNonceResult } from '../../api/contract/security.ts';

/** The part of an EIP-1193 provider we use. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export const injectedWallet = (): Eip1193Provider | undefined =>
  (typeof window !== 'undefined' ? (window as { ethereum?: Eip1193Provider }).ethereum : undefined);

/** The EIP-4361 message for `address` with the fields the server issued. */
export function siweMessageText(address: string, fields: SiweNonceResult): string {
  return [
    `${fields.domain} wants you to sign in with your Ethereum account:`,
    address,
    '',
    fields.statement,
    '',
    `URI: ${fields.uri}`,
    `Version: ${fields.version}`,
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt}`,
    `Expiration Time: ${fields.expirationTime}`,
  ].join('\n');
}

/** UTF-8 text as 0x-prefixed hex, the form personal_sign takes. */
export function utf8Hex(text: string): string {
  return `0x${Array.from(new TextEncoder().encode(text), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** Why a wallet step did not happen: the user said no (EIP-1193 code 4001) or the wallet failed. */
export class WalletStepError extends Error {
  constructor(readonly rejected: boolean) { super(rejected ? 'rejected' : 'failed'); }
}

async function ask<T>(wallet: Eip1193Provider, method: string, params?: unknown[]): Promise<T> {
  try {
    return await wallet.request({ method, params }) as T;
  } catch (error) {
    throw new WalletStepError((error as { code?: number } | undefined)?.code === 4001);
  }
}

/**
 * Connects the wallet, asks `nonceFor(chainId)` for the message fields and has the wallet sign the
 * message: the body of siweLogin / siweLink.
 */
export async function signInWithWallet(wallet: Eip1193Provider, nonceFor: (chainId: number) => Promise<SiweNonceResult>) {
  const accounts = await ask<string[]>(wallet, 'eth_requestAccounts');
  const address = accounts?.[0];
  if (!address || !/^0x[0-9a-fA-F]{40}$/.test(address)) throw new WalletStepError(false);
  const chainHex = await ask<string>(wallet, 'eth_chainId');
  const chainId = Number.parseInt(String(chainHex), 16);
  const fields = await nonceFor(Number.isSafeInteger(chainId) && chainId > 0 ? chainId : 1);
  const message = siweMessageText(address, fields);
  const signature = await ask<string>(wallet, 'personal_sign', [utf8Hex(message), address]);
  return { message, signature };
}

/** How asking the wallet for a signed message ended, told apart so each caller can say it its own way. */
export type WalletSignature =
  | { outcome: 'signed'; body: { message: string; signature: string } }
  | { outcome: 'nonceRefused'; error: unknown }
  | { outcome: 'rejected' }
  | { outcome: 'failed' };

/**
 * The wallet-signature step the login and the security centre's link share: signInWithWallet with
 * the message fields from the server's nonce call (siweNonce). A refused nonce call is returned
 * with its error; a wallet that says no (`rejected`) or fails (`failed`) is returned as such.
 */
export async function signServerMessage(wallet: Eip1193Provider,
  getNonce: (chainId: number) => PromiseLike<{ data?: SiweNonceResult; error?: unknown }>): Promise<WalletSignature> {
  let nonceRefusal: { error: unknown } | undefined;
  try {
    const body = await signInWithWallet(wallet, async (chainId) => {
      const answer = await getNonce(chainId);
      if (answer.error || !answer.data) {
        nonceRefusal = { error: answer.error };
        throw new WalletStepError(false);
      }
      return answer.data;
    });
    return { outcome: 'signed', body };
  } catch (error) {
    if (nonceRefusal) return { outcome: 'nonceRefused', error: nonceRefusal.error };
    return { outcome: error instanceof WalletStepError && error.rejected ? 'rejected' : 'failed' };
  }
}
