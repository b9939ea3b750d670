// Conformance: Google Authenticator as a third-party client sees it (spec §7 checkGoogleAuth,
// generateGoogleKey, bindGoogleAuth, googleSecretLogin; ours googleAuthState, unbindGoogleAuth).
// The client computes its own RFC 6238 codes from the base32 secret (adminClient.ts), on the real
// clock: a code one step ahead is accepted (clock drift), so no test waits for the next step.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, totp } from './adminClient.ts';
import { readCode, startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, tokenOf } from './specClient.ts';
import { describeAnswer, expectSuccess as ok } from './expectAnswer.ts';

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
const email = `conf-2fa-${unique()}@example.test`;
const codeAt = (secret: string, offsetSteps = 0) => totp(base32Decode(secret), Date.now() + offsetSteps * 30_000);

describe('Google Authenticator', () => {
  let token: string;
  let secret: string;
  let recoveryCodes: string[];

  it('binds: a key with its otpauth URI, confirmed with a code, answers ten recovery codes', async () => {
    expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
    const code = await readCode(server.dataDir, email, 'email');
    const registered = await client.register({ accountType: 'email', account: email, password, code });
    token = tokenOf(registered)!;
    expect(token, describeAnswer(registered)).toEqual(expect.any(String));
    expect(ok(await client.get('/app/checkGoogleAuth', { account: email }))).toEqual({ bound: false });

    const key = ok(await client.get<{ secret: string; otpauthUri: string }>('/app/generateGoogleKey', {}, token));
    secret = key.secret;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const uri = new URL(key.otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Bourse');

    const wrong = await client.post('/user/appUser/bindGoogleAuth', { secret, code: codeAt(secret, 20) }, token);
    expect(errorOf(wrong), describeAnswer(wrong)).toBe('google_code_invalid');
    const bound = ok(await client.post<{ recoveryCodes: string[] }>('/user/appUser/bindGoogleAuth', { secret, code: codeAt(secret) }, token));
    recoveryCodes = bound.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(ok(await client.get('/app/checkGoogleAuth', { account: email }))).toEqual({ bound: true });
    expect(ok(await client.get('/user/appUser/googleAuthState', {}, token))).toMatchObject({ bound: true, recoveryCodesLeft: 10 });
  });

  it('asks for the code after the password; logs in with password and code, each code once', async () => {
    const first = await client.login(email, password);
    expect(errorOf(first), describeAnswer(first)).toBe('google_code_required');
    expect(tokenOf(first)).toBeUndefined();
    const codeOnly = await client.post('/app/googleSecretLogin', { account: email, googleCode: codeAt(secret, 1) });
    expect(errorOf(codeOnly), describeAnswer(codeOnly)).toBe('credentials_invalid');
    const googleCode = codeAt(secret, 1);
    const loggedIn = await client.post('/app/googleSecretLogin', { account: email, password, googleCode });
    const second = tokenOf(loggedIn);
    expect(second, describeAnswer(loggedIn)).toEqual(expect.any(String));
    expect((await client.myUserInfo(second)).envelope?.code).toBe(200);
    const replayed = await client.post('/app/googleSecretLogin', { account: email, password, googleCode });
    expect(errorOf(replayed), describeAnswer(replayed)).toBe('google_code_invalid');
    const recovered = await client.post('/app/googleSecretLogin', { account: email, password, recoveryCode: recoveryCodes[0] });
    expect(tokenOf(recovered), describeAnswer(recovered)).toEqual(expect.any(String));
    const again = await client.post('/app/googleSecretLogin', { account: email, password, recoveryCode: recoveryCodes[0] });
    expect(errorOf(again), describeAnswer(again)).toBe('recovery_code_invalid');
  });

  it('ends every other way in with the same second step: an e-mail code earns a ticket that a code completes', async () => {
    expect(isSuccess(await client.emailCaptcha(email, 'login'))).toBe(true);
    const first = await client.post('/app/emailLogin', { email, code: await readCode(server.dataDir, email, 'email') });
    expect(errorOf(first), describeAnswer(first)).toBe('google_code_required');
    expect(tokenOf(first)).toBeUndefined();
    const loginTicket = (first.envelope?.result as { loginTicket?: string }).loginTicket;
    expect(loginTicket, describeAnswer(first)).toEqual(expect.any(String));
    const completed = await client.post('/app/loginSecondStep', { loginTicket, recoveryCode: recoveryCodes[2] });
    expect(tokenOf(completed), describeAnswer(completed)).toEqual(expect.any(String));
    const again = await client.post('/app/loginSecondStep', { loginTicket, recoveryCode: recoveryCodes[3] });
    expect(errorOf(again), describeAnswer(again)).toBe('login_ticket_invalid');
  });

  it('resets the password of a bound account only with the mailed code and a second factor', async () => {
    expect(isSuccess(await client.emailCaptcha(email, 'reset'))).toBe(true);
    const code = await readCode(server.dataDir, email, 'email');
    const reset = { accountType: 'email', account: email, code, password };
    const alone = await client.post('/app/resetPassword', reset);
    expect(errorOf(alone), describeAnswer(alone)).toBe('google_code_required');
    ok(await client.post('/app/resetPassword', { ...reset, recoveryCode: recoveryCodes[3] }));
    // The reset ended every session: log in again (password and a recovery code) for what follows.
    const again = await client.post('/app/googleSecretLogin', { account: email, password, recoveryCode: recoveryCodes[4] });
    token = tokenOf(again)!;
    expect(token, describeAnswer(again)).toEqual(expect.any(String));
  });

  it('unbinds with a code to the account\'s e-mail and a recovery code', async () => {
    const sent = await client.get('/app/getEmailCaptcha', { email, type: 'googleUnbind' }, token);
    expect(isSuccess(sent), describeAnswer(sent)).toBe(true);
    const emailCode = await readCode(server.dataDir, email, 'email');
    ok(await client.post('/user/appUser/unbindGoogleAuth', { emailCode, recoveryCode: recoveryCodes[1] }, token));
    expect(ok(await client.get('/user/appUser/googleAuthState', {}, token))).toEqual({ bound: false, recoveryCodesLeft: 0 });
    expect(tokenOf(await client.login(email, password))).toEqual(expect.any(String));
  });
});
