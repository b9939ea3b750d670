// The back-office calls for a third-party client: operator login with a TOTP code, me, logout,
// the ledger check and the audit trail. Like specClient.ts it imports nothing from src/ or
// server/: TOTP is RFC 6238 written here on node:crypto's HMAC (paths and fields read, not
// imported, from src/api/contract/admin.ts).
import crypto from 'node:crypto';
import { isSuccess, tokenOf, type SpecClient } from './specClient.ts';

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The operator the server seeds with a demo (README, Operators). Its secret is never rotated. */
export const demoOperator = { email: 'operator@bourse.local', password: 'Operator2026pass', totpSecret: 'JBSWY3DPEHPK3PXPBOURSEDEMO234567' };

/** RFC 4648 base32 (no padding needed), as authenticator apps read a secret. */
export function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = base32Alphabet.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP (HMAC-SHA-1, 30-second steps) of a raw key at `timeMs`, `digits` long. */
export function totp(key: Buffer, timeMs: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timeMs / 1000 / 30)));
  const mac = crypto.createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

export interface LedgerCheck {
  chainValid: boolean;
  balancesValid: boolean;
  conserved: boolean;
  transfers: number;
  accounts: number;
  assets: Array<{ currency: string; ledger: string; sum: string; pendingSum: string }>;
  headsDigest: string;
  problems: string[];
  checkedAt: number;
}

export interface AuditPage {
  records: Array<{ id: string; operatorId: string; operatorEmail: string; action: string; targetType: string; time: number }>;
  total: number; size: number; current: number; pages: number;
}

export class AdminClient {
  constructor(readonly client: SpecClient) {}

  login(account: string, password: string, totpCode: string) {
    return this.client.post<{ token: string }>('/admin/login', { account, password, totpCode });
  }

  me(token: string) {
    return this.client.get<{ id: string; email: string; role: string }>('/admin/me', {}, token);
  }

  logout(token: string) {
    return this.client.post('/admin/logout', {}, token);
  }

  ledgerCheck(token: string) {
    return this.client.get<LedgerCheck>('/admin/ledger/check', {}, token);
  }

  audit(token: string, query: { pageNo?: number; pageSize?: number; operatorId?: string; userId?: string; action?: string } = {}) {
    return this.client.get<AuditPage>('/admin/audit', query, token);
  }
}

/**
 * Logs the demo operator in with this step's code and returns the token. The code is spent: a
 * later call needing the operator's code (a step-up) must use the next step's.
 */
export async function demoOperatorToken(client: SpecClient): Promise<string> {
  const login = await new AdminClient(client).login(demoOperator.email, demoOperator.password,
    totp(base32Decode(demoOperator.totpSecret), await client.serverTime()));
  const token = tokenOf(login);
  if (!token) throw new Error(`demo operator login: HTTP ${login.status}: ${login.text}`);
  return token;
}

/** The second demo operator (finance), who approves what the first may not do alone. */
export const demoReviewer = { email: 'reviewer@bourse.local', password: 'Reviewer2026pass', totpSecret: 'JBSWY3DPEHPK3PXPBOURSEREVIEWER23' };

const reviewerTokens = new WeakMap<SpecClient, Promise<string>>();

/** The demo reviewer's token, logged in once per client (a TOTP code is good once). */
export function demoReviewerToken(client: SpecClient): Promise<string> {
  let token = reviewerTokens.get(client);
  if (!token) {
    token = (async () => {
      const login = await new AdminClient(client).login(demoReviewer.email, demoReviewer.password,
        totp(base32Decode(demoReviewer.totpSecret), await client.serverTime()));
      const value = tokenOf(login);
      if (!value) throw new Error(`demo reviewer login: HTTP ${login.status}: ${login.text}`);
      return value;
    })();
    reviewerTokens.set(client, token);
  }
  return token;
}

/**
 * A guarded setting's answer (ours, /api/admin): when the change pays more than before it waits
 * (`pendingChange`) until a second operator approves it with POST /admin/settingChanges/:id/approve;
 * the demo reviewer does, and the setting as applied is answered.
 */
export async function approvedByReviewer<T>(client: SpecClient, answer: T & { pendingChange?: { id: string } }): Promise<T> {
  if (!answer.pendingChange) return answer;
  const approved = await client.post<{ status: string; after: T }>(`/admin/settingChanges/${answer.pendingChange.id}/approve`, {},
    await demoReviewerToken(client));
  if (!isSuccess(approved) || approved.envelope?.result.status !== 'applied') throw new Error(`setting change approval: ${approved.text}`);
  return approved.envelope.result.after;
}
