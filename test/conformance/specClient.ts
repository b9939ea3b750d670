// A client of the Bourse API written from the product spec (§7–§9) and the README's wire protocol
// alone, to prove a third-party client can use the server. It imports nothing from src/ or
// server/: only node:crypto and fetch. Field names the spec does not show were read (not imported)
// from src/api/contract/*.ts.
//
// Spec §7: every POST body is encrypted. A random 32-character key over an alphabet without
// look-alike characters is wrapped with the server's RSA public key (RSA-OAEP, SHA-256); the JSON
// body, null fields dropped, is encrypted with AES-256-ECB (PKCS#7) using the 32 key characters as
// the key bytes; the body is the text "base64(wrappedKey).base64(ciphertext)". The body carries
// the call's fields only: no timestamp, no nonce.
import crypto from 'node:crypto';

export const keyAlphabet = 'ABCDEFGHJKMNPQRSTWXYZabcdefhijkmnprstwxyz2345678';
export const keyLength = 32;
export const tokenHeader = 'X-Access-Token';

export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  code: number;
  result: T;
  timestamp: number;
}

export interface Answer<T = unknown> {
  /** HTTP status. */
  status: number;
  /** The parsed envelope, or undefined when the answer was not JSON. */
  envelope: Envelope<T> | undefined;
  /** The answer's text as received. */
  text: string;
}

/** Spec §8–§9: codes 200 and 0 are success (an array body also counts as success). */
export const isSuccess = (answer: Answer) =>
  answer.status < 400 && answer.envelope !== undefined
  && (Array.isArray(answer.envelope) || answer.envelope.code === 200 || answer.envelope.code === 0);

/** The stable error code of a failed answer (`result.error`), if any. */
export const errorOf = (answer: Answer): string | undefined => {
  const result = answer.envelope?.result as { error?: unknown } | null | undefined;
  return typeof result?.error === 'string' ? result.error : undefined;
};

/** The session token of a login answer (`result.token`), if any. */
export const tokenOf = (answer: Answer): string | undefined => {
  const result = answer.envelope?.result as { token?: unknown } | null | undefined;
  return typeof result?.token === 'string' && result.token !== '' ? result.token : undefined;
};

/** A random request key: 32 characters of the alphabet, drawn with crypto randomness. */
export function randomRequestKey(): string {
  let key = '';
  for (let index = 0; index < keyLength; index += 1) key += keyAlphabet[crypto.randomInt(keyAlphabet.length)];
  return key;
}

/** Drops null and undefined fields, at every depth of plain objects. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value)
      .filter(([, field]) => field !== null && field !== undefined)
      .map(([name, field]) => [name, withoutNulls(field)]));
  }
  return value;
}

/** Encrypts text with the given request key: base64(RSA-OAEP(key)).base64(AES-256-ECB(text)). */
export function sealText(publicKeyPem: string, plaintext: string, key: string = randomRequestKey()): string {
  const keyBytes = Buffer.from(key, 'utf8');
  const wrapped = crypto.publicEncrypt(
    { key: publicKeyPem, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, keyBytes);
  const cipher = crypto.createCipheriv('aes-256-ecb', keyBytes, null);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${wrapped.toString('base64')}.${ciphertext.toString('base64')}`;
}

/** The encrypted body text of a POST: the call's fields, null fields dropped, nothing added. */
export function sealBody(publicKeyPem: string, body: object = {}): string {
  return sealText(publicKeyPem, JSON.stringify(withoutNulls(body)));
}

type Query = Record<string, string | number | boolean | undefined | null>;

export class SpecClient {
  private publicKeyPem: string | undefined;

  constructor(readonly baseUrl: string) {}

  /** GET /api/public/getPublicKey: the RSA public key (PEM) in `result`. Fetched once. */
  async publicKey(): Promise<string> {
    if (this.publicKeyPem) return this.publicKeyPem;
    const answer = await this.get<string>('/public/getPublicKey');
    const pem = answer.envelope?.result;
    if (!isSuccess(answer) || typeof pem !== 'string' || !pem.includes('PUBLIC KEY')) {
      throw new Error(`GET /api/public/getPublicKey gave no key: ${answer.status} ${answer.text}`);
    }
    this.publicKeyPem = pem;
    return pem;
  }

  /** Milliseconds of server time (GET /api/public/getServerTime). */
  async serverTime(): Promise<number> {
    const answer = await this.get<{ serverTime: number }>('/public/getServerTime');
    const serverTime = answer.envelope?.result.serverTime;
    if (typeof serverTime !== 'number') throw new Error(`no server time: ${answer.status} ${answer.text}`);
    return serverTime;
  }

  async get<T = unknown>(apiPath: string, query: Query = {}, token?: string): Promise<Answer<T>> {
    const url = new URL(`/api${apiPath}`, this.baseUrl);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    return this.send<T>(url, { method: 'GET', headers: token ? { [tokenHeader]: token } : {} });
  }

  /** The encrypted body this client would send for `body`; a fresh key each time. */
  async seal(body: object = {}): Promise<string> {
    return sealBody(await this.publicKey(), body);
  }

  async post<T = unknown>(apiPath: string, body: object = {}, token?: string): Promise<Answer<T>> {
    return this.postRaw<T>(apiPath, await this.seal(body), token);
  }

  /** Sends `text` as the body as it is: for replays and tampered bodies. */
  async postRaw<T = unknown>(apiPath: string, text: string, token?: string): Promise<Answer<T>> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers[tokenHeader] = token;
    return this.send<T>(new URL(`/api${apiPath}`, this.baseUrl), { method: 'POST', headers, body: text });
  }

  /**
   * POST /api/sys/common/upload: multipart with `file` and `purpose` (deposit_proof, identity),
   * not encrypted (spec §5).
   */
  upload(token: string, bytes: Buffer, purpose: string, type = 'image/png', name = 'photo.png') {
    const form = new FormData();
    form.set('purpose', purpose);
    form.set('file', new Blob([new Uint8Array(bytes)], { type }), name);
    return this.send<{ id: string; url: string }>(new URL('/api/sys/common/upload', this.baseUrl),
      { method: 'POST', body: form, headers: { [tokenHeader]: token } });
  }

  private async send<T>(url: URL, init: RequestInit): Promise<Answer<T>> {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
    const text = await response.text();
    let envelope: Envelope<T> | undefined;
    try {
      envelope = JSON.parse(text) as Envelope<T>;
    } catch {
      envelope = undefined;
    }
    return { status: response.status, envelope, text };
  }

  // The account calls. Names and fields: spec §7, and src/api/contract/accounts.ts (read, not imported).

  emailCaptcha(email: string, type: 'register' | 'login' | 'reset') {
    return this.get('/app/getEmailCaptcha', { email, type });
  }

  phoneCaptcha(phone: string, countryCode: string, type: 'register' | 'login' | 'reset') {
    return this.get('/app/getPhoneCaptcha', { phone, countryCode, type });
  }

  register(body: { accountType: 'email' | 'phone'; account: string; countryCode?: string; password: string; code: string; inviteCode?: string }) {
    return this.post<{ token: string }>('/app/register', body);
  }

  login(account: string, password: string, countryCode?: string) {
    return this.post<{ token: string }>('/app/login', { account, password, countryCode });
  }

  emailLogin(email: string, code: string) {
    return this.post<{ token: string }>('/app/emailLogin', { email, code });
  }

  phoneLogin(phone: string, countryCode: string, code: string) {
    return this.post<{ token: string }>('/app/phoneLogin', { phone, countryCode, code });
  }

  guestLogin(account: string) {
    return this.post<{ token: string; initialPassword: string }>('/app/guestLogin', { account });
  }

  myUserInfo(token?: string) {
    return this.get<{ id: string; account: string; email: string | null; phone: string | null }>(
      '/user/appUser/getMyUserInfo', {}, token);
  }

  logout(token: string) {
    return this.post('/user/appUser/logout', {}, token);
  }

  // Withdrawals (spec §7). Fields: src/api/contract/withdrawals.ts (read, not imported).

  withdrawPasswordEmailCode(email: string, token: string) {
    return this.get('/app/getEmailCaptcha', { email, type: 'withdrawPassword' }, token);
  }

  setWithdrawPassword(password: string, code: string, token: string) {
    return this.post('/user/appUser/setWithdrawPassword', { password, code }, token);
  }

  changeWithdrawPassword(oldPassword: string, newPassword: string, token: string) {
    return this.post('/user/appUser/changeWithdrawPassword', { oldPassword, newPassword }, token);
  }

  addWithdrawalAccount(body: { type: 'bank'; bankName: string; realName: string; cardNumber: string }
    | { type: 'chain'; currency: string; network: string; address: string }, token: string) {
    return this.post<{ id: string; type: string; address: string | null; cardNumber: string | null }>(
      '/user/appUserWithdrawalInfoSet/addAccount', body, token);
  }

  editWithdrawalAccount(body: { id: string } & ({ type: 'bank'; bankName: string; realName: string; cardNumber: string }
    | { type: 'chain'; currency: string; network: string; address: string }), token: string) {
    return this.post<{ id: string }>('/user/appUserWithdrawalInfoSet/editAccount', body, token);
  }

  listWithdrawalAccounts(token: string) {
    return this.get<Array<{ id: string; type: string; network: string | null; address: string | null; cardNumber: string | null }>>(
      '/user/appUserWithdrawalInfoSet/listMy', {}, token);
  }

  applyWithdrawal(body: { currency: string; amount: string; withdrawalInfoId: string; withdrawPassword: string }, token: string) {
    return this.post<{ id: string; status: number; amount: string; fee: string }>('/finance/appWithdrawal/apply', body, token);
  }

  listMyWithdrawals(token: string, query: { pageNo?: number; pageSize?: number; status?: number } = {}) {
    return this.get<{ records: Array<{ id: string; status: number; reason: string | null }>; total: number; size: number; current: number; pages: number }>(
      '/finance/appWithdrawal/listMy', query, token);
  }
}
