// The back-office calls for a third-party client: operator login with a TOTP code, me, logout,
// the ledger check and the audit trail. Like specClient.ts it imports nothing from src/ or
// server/: TOTP is RFC 6238 written here on node:crypto's HMAC (paths and fields read, not
// imported, from src/api/contract/admin.ts).
import crypto from 'node:crypto';
import { tokenOf, type SpecClient } from './specClient.ts';

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
