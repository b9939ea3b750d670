// Conformance: a spec-only client registers and logs in every way the server offers, with codes
// read from the server's dev outbox. Bodies carry the call's fields only (no `_ts`).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, tokenOf, type Answer } from './specClient.ts';
import { describeAnswer } from './expectAnswer.ts';

let server: RunningServer;
let client: SpecClient;

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
});

afterAll(async () => {
  await server?.stop();
});

const unique = () => crypto.randomBytes(5).toString('hex');
const password = `Conf${unique()}9`;
const email = `conf-${unique()}@example.test`;
const countryCode = '44';
const phone = `7${String(crypto.randomInt(100_000_000, 999_999_999))}`;
const smsAddress = `+${countryCode}${phone}`;


/** Asserts a successful login-like answer and returns its token. */
function expectToken(answer: Answer): string {
  expect(isSuccess(answer), describeAnswer(answer)).toBe(true);
  const token = tokenOf(answer);
  expect(token, describeAnswer(answer)).toEqual(expect.any(String));
  return token!;
}

/** Registrations shared by the tests that need an existing account; each runs once. */
let emailAccount: Promise<string> | undefined;
const registerByEmail = () => (emailAccount ??= (async () => {
  const sent = await client.emailCaptcha(email, 'register');
  expect(isSuccess(sent), describeAnswer(sent)).toBe(true);
  const code = await readCode(server.dataDir, email, 'email');
  return expectToken(await client.register({ accountType: 'email', account: email, password, code }));
})());

let phoneAccount: Promise<string> | undefined;
const registerByPhone = () => (phoneAccount ??= (async () => {
  const sent = await client.phoneCaptcha(phone, countryCode, 'register');
  expect(isSuccess(sent), describeAnswer(sent)).toBe(true);
  const code = await readCode(server.dataDir, smsAddress, 'sms');
  return expectToken(await client.register({ accountType: 'phone', account: phone, countryCode, password, code }));
})());

describe('GET /api/public/getPublicKey', () => {
  it('answers the RSA public key as a PEM string in result', async () => {
    const answer = await client.get<string>('/public/getPublicKey');
    expect(isSuccess(answer), describeAnswer(answer)).toBe(true);
    const key = crypto.createPublicKey(answer.envelope!.result);
    expect(key.asymmetricKeyType).toBe('rsa');
  });
});

describe('POST /api/app/register', () => {
  it('registers by e-mail with a code from the outbox', async () => {
    const token = await registerByEmail();
    const info = await client.myUserInfo(token);
    expect(info.envelope?.code, describeAnswer(info)).toBe(200);
    expect(info.envelope?.result.email).toBe(email);
  });

  it('registers by phone with a code from the SMS outbox', async () => {
    const token = await registerByPhone();
    const info = await client.myUserInfo(token);
    expect(info.envelope?.code, describeAnswer(info)).toBe(200);
    expect(info.envelope?.result.phone).toBe(phone);
  });

  it('answers a code request for a registered address exactly as for an unknown one (no enumeration)', async () => {
    // A fresh account, registered just now, against a fresh unknown address asked for twice: both
    // had a code request moments ago, so both answers are the same refusal (or the same success).
    const known = `conf-known-${unique()}@example.test`;
    expect(isSuccess(await client.emailCaptcha(known, 'register'))).toBe(true);
    const code = await readCode(server.dataDir, known, 'email');
    expectToken(await client.register({ accountType: 'email', account: known, password, code }));
    const unknown = `conf-unknown-${unique()}@example.test`;
    expect(isSuccess(await client.emailCaptcha(unknown, 'register'))).toBe(true);
    const forKnown = await client.emailCaptcha(known, 'register');
    const forUnknown = await client.emailCaptcha(unknown, 'register');
    expect(forKnown.status, describeAnswer(forKnown)).toBe(forUnknown.status);
    expect(errorOf(forKnown)).toBe(errorOf(forUnknown));
    expect(forKnown.status).toBeLessThan(500);
  });
});

describe('POST /api/app/login', () => {
  it('logs in by e-mail and password after registering', async () => {
    await registerByEmail();
    const token = expectToken(await client.login(email, password));
    const info = await client.myUserInfo(token);
    expect(info.envelope?.result.email).toBe(email);
  });

  it('logs in by phone number, country code and password', async () => {
    await registerByPhone();
    const token = expectToken(await client.login(phone, password, countryCode));
    const info = await client.myUserInfo(token);
    expect(info.envelope?.result.phone).toBe(phone);
  });

  it('logs the seeded demo account in', async () => {
    expectToken(await client.login('demo@bourse.local', 'Demo2026pass'));
  });

  it('refuses a wrong password with credentials_invalid and no token', async () => {
    const answer = await client.login('demo@bourse.local', 'Wrong2026pass');
    expect(answer.status, describeAnswer(answer)).toBe(400);
    expect(errorOf(answer)).toBe('credentials_invalid');
    expect(tokenOf(answer)).toBeUndefined();
  });
});

describe('POST /api/app/emailLogin', () => {
  it('logs in with a login code from the outbox', async () => {
    await registerByEmail();
    const sent = await client.emailCaptcha(email, 'login');
    expect(isSuccess(sent), describeAnswer(sent)).toBe(true);
    const code = await readCode(server.dataDir, email, 'email');
    const token = expectToken(await client.emailLogin(email, code));
    const info = await client.myUserInfo(token);
    expect(info.envelope?.result.email).toBe(email);
  });
});

describe('POST /api/app/phoneLogin', () => {
  it('logs in with a login code from the SMS outbox', async () => {
    await registerByPhone();
    const sent = await client.phoneCaptcha(phone, countryCode, 'login');
    expect(isSuccess(sent), describeAnswer(sent)).toBe(true);
    const code = await readCode(server.dataDir, smsAddress, 'sms');
    const token = expectToken(await client.phoneLogin(phone, countryCode, code));
    const info = await client.myUserInfo(token);
    expect(info.envelope?.result.phone).toBe(phone);
  });
});

describe('POST /api/app/guestLogin', () => {
  it('creates a guest, answers a token and an initial password that logs in', async () => {
    const name = `guest_${unique()}`;
    const answer = await client.guestLogin(name);
    const token = expectToken(answer);
    const info = await client.myUserInfo(token);
    expect(info.envelope?.result.account).toBe(name);
    const { initialPassword } = answer.envelope!.result as { initialPassword: string };
    expect(initialPassword).toEqual(expect.any(String));
    expectToken(await client.login(name, initialPassword));
  });
});

describe('GET /api/user/appUser/getMyUserInfo', () => {
  it('returns the logged-in user (code 200, result.id present)', async () => {
    const token = expectToken(await client.login('demo@bourse.local', 'Demo2026pass'));
    const info = await client.myUserInfo(token);
    expect(info.status).toBe(200);
    expect(info.envelope?.code).toBe(200);
    expect(info.envelope?.success).toBe(true);
    expect(info.envelope?.result.id).toEqual(expect.any(String));
    expect(info.envelope?.result.email).toBe('demo@bourse.local');
  });
});

describe('POST /api/user/appUser/logout', () => {
  it('ends the session: the old token then gets 401 from getMyUserInfo', async () => {
    const token = expectToken(await client.login('demo@bourse.local', 'Demo2026pass'));
    expect((await client.myUserInfo(token)).envelope?.code).toBe(200);
    const loggedOut = await client.logout(token);
    expect(isSuccess(loggedOut), describeAnswer(loggedOut)).toBe(true);
    const after = await client.myUserInfo(token);
    expect(after.status, describeAnswer(after)).toBe(401);
    expect(after.envelope?.code).toBe(401);
    expect(errorOf(after)).toBe('unauthorized');
  });
});

describe('GET /api/user/appUser/getMyUserInfo without a valid session', () => {
  it('answers 401 to a made-up token', async () => {
    const answer = await client.myUserInfo(crypto.randomBytes(32).toString('base64url'));
    expect(answer.status, describeAnswer(answer)).toBe(401);
    expect(answer.envelope?.code).toBe(401);
    expect(errorOf(answer)).toBe('unauthorized');
  });

  it('answers 401 without a token', async () => {
    const answer = await client.myUserInfo();
    expect(answer.status, describeAnswer(answer)).toBe(401);
    expect(answer.envelope?.code).toBe(401);
  });
});
