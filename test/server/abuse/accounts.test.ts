// The account floods of the abuse probe (issue 7, points 3, 4 and 6), through the real protocol:
// parallel password guesses, junk registrations and resets, wrong current passwords from a stolen
// session, and known-versus-unknown accounts on every side door. Every flood is bounded in count;
// the assertions are on answers, state and argon2 runs (counted by passwords.ts), never timings.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectRefused, forEachDatabase, type Account, type Reply, type TestServer } from '../helpers.ts';
import { paths } from '../../../src/api/contract/paths.ts';
import { passwordWork } from '../../../server/domain/kernel/passwords.ts';
import { redisRateLimiter, type ThrottlePolicy } from '../../../server/lib/rateLimiter.ts';

const limits = {
  // High enough that the throttle per account and address is what the guessing tests meet.
  loginAttemptsPerIpPerMinute: 1_000,
  loginFailuresPerIpPerHour: 1_000,
  loginFailuresPerAccountPerHour: 20,
  codeChecksPerIpPerHour: 20,
};

/** An envelope without its timestamp, to compare two answers whole. */
const withoutTime = ({ timestamp: _timestamp, ...rest }: Record<string, unknown>) => rest;

/** Answers by result.error ('ok' for a success), to assert how a flood was answered. */
function tally(replies: Reply[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const reply of replies) {
    expect(reply.status).toBeLessThan(500);
    const key = reply.status === 200 ? 'ok' : String(reply.body.result.error);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** Posts bodies encrypted beforehand, in order, all at once: they reach the server in that order. */
async function postAllAtOnce(server: TestServer, path: string, bodies: Record<string, unknown>[], ips: string[]) {
  const payloads = [];
  for (const body of bodies) payloads.push(await server.encrypt(body));
  return Promise.all(payloads.map((payload, index) => server.postRaw(path, payload, { ip: ips[index % ips.length] })));
}

forEachDatabase((server) => {
  const free = () => server.limits.passwordAttemptsFree;
  let addressCounter = 0;
  const elsewhere = () => { addressCounter += 1; return `198.51.100.${addressCounter % 250}`; };

  describe('POST /api/app/login under parallel guessing (point 3)', () => {
    it('gives no token to 30 parallel guesses with the right one last, and checks at most the free attempts', async () => {
      const account = await server.registerByEmail();
      const sessions = await server.count('sessions');
      const verifications = passwordWork.verifications;
      const bodies = Array.from({ length: 30 }, (_, index) =>
        ({ account: account.account, password: index === 29 ? account.password : `Wrong${index}password` }));
      const replies = await postAllAtOnce(server, paths.login, bodies, [elsewhere()]);
      expect(tally(replies)).toEqual({ credentials_invalid: free(), too_many_attempts: 30 - free() });
      expect(passwordWork.verifications - verifications).toBe(free());
      expect(await server.count('sessions')).toBe(sessions);
    });

    it('checks 100 parallel wrong guesses from one address at most the free attempts, and the owner logs in from another', async () => {
      const account = await server.registerByEmail();
      const attacker = elsewhere();
      const verifications = passwordWork.verifications;
      const bodies = Array.from({ length: 100 }, (_, index) => ({ account: account.account, password: `Wrong${index}password` }));
      const replies = await postAllAtOnce(server, paths.login, bodies, [attacker]);
      expect(tally(replies)).toEqual({ credentials_invalid: free(), too_many_attempts: 100 - free() });
      expect(passwordWork.verifications - verifications).toBe(free());
      for (const reply of replies.filter((one) => one.status === 429)) {
        expect(reply.body.result.retryAfterSeconds).toBeGreaterThan(0);
        expect(reply.headers['retry-after']).toBe(String(reply.body.result.retryAfterSeconds));
      }
      expectOk(await server.post(paths.login, { account: account.account, password: account.password }, { ip: elsewhere() }));
      const still = await server.post(paths.login, { account: account.account, password: account.password }, { ip: attacker });
      expectRefused(still, 429, 'too_many_attempts');
    });

    it('checks 100 parallel wrong guesses from 100 addresses at most the account ceiling, and an address it knows still logs in', async () => {
      const account = await server.registerByEmail();
      const home = elsewhere();
      expectOk(await server.post(paths.login, { account: account.account, password: account.password }, { ip: home }));
      const verifications = passwordWork.verifications;
      const bodies = Array.from({ length: 100 }, (_, index) => ({ account: account.account, password: `Wrong${index}password` }));
      const ips = Array.from({ length: 100 }, (_, index) => `203.0.113.${index + 1}`);
      const replies = await postAllAtOnce(server, paths.login, bodies, ips);
      const ceiling = limits.loginFailuresPerAccountPerHour;
      expect(tally(replies)).toEqual({ credentials_invalid: ceiling, too_many_attempts: 100 - ceiling });
      expect(passwordWork.verifications - verifications).toBe(ceiling);
      expectOk(await server.post(paths.login, { account: account.account, password: account.password }, { ip: home }));
      expectRefused(await server.post(paths.login, { account: account.account, password: account.password }, { ip: elsewhere() }),
        429, 'too_many_attempts');
      server.clock.advance(3_600_000);
    });

    it('throttles guesses at an unknown account exactly as at a known one', async () => {
      const account = await server.registerByEmail();
      const guess = async (name: string) => {
        const ip = elsewhere();
        const bodies = Array.from({ length: 12 }, (_, index) => ({ account: name, password: `Wrong${index}password` }));
        return (await postAllAtOnce(server, paths.login, bodies, [ip])).map((reply) => withoutTime(reply.body));
      };
      const known = await guess(account.account);
      const unknown = await guess(server.uniqueEmail());
      expect(unknown.filter((body) => body.code === 400)).toEqual(known.filter((body) => body.code === 400));
      expect(unknown.filter((body) => body.code === 429)).toHaveLength(known.filter((body) => body.code === 429).length);
    });
  });

  describe('expensive work (point 4)', () => {
    it('answers junk registrations from one address with 429 past the limit, creating no user and hashing nothing', async () => {
      const ip = elsewhere();
      const users = await server.count('users');
      const hashes = passwordWork.hashes;
      const bodies = Array.from({ length: 60 }, () =>
        ({ accountType: 'email', account: server.uniqueEmail(), password: 'Secret123pass', code: '123456' }));
      const replies = await postAllAtOnce(server, paths.register, bodies, [ip]);
      expect(tally(replies)).toEqual({ code_invalid: limits.codeChecksPerIpPerHour, rate_limited: 60 - limits.codeChecksPerIpPerHour });
      expect(passwordWork.hashes).toBe(hashes);
      expect(await server.count('users')).toBe(users);
    });

    it('answers junk resets from one address with 429 past the limit, hashing nothing', async () => {
      const account = await server.registerByEmail();
      const ip = elsewhere();
      const hashes = passwordWork.hashes;
      const before = (await server.userByEmail(account.email!)).passwordHash;
      const bodies = Array.from({ length: 40 }, (_, index) =>
        ({ accountType: 'email', account: account.email, password: 'Renewed2password', code: String(100_000 + index) }));
      const replies = await postAllAtOnce(server, paths.resetPassword, bodies, [ip]);
      expect(tally(replies)).toEqual({ code_invalid: limits.codeChecksPerIpPerHour, rate_limited: 40 - limits.codeChecksPerIpPerHour });
      expect(passwordWork.hashes).toBe(hashes);
      expect((await server.userByEmail(account.email!)).passwordHash).toBe(before);
    });

    it('hashes the password of a registration once, and only with the right code', async () => {
      const email = server.uniqueEmail();
      expectOk(await server.requestEmailCode(email, 'register'));
      const code = server.latestCode(email);
      const hashes = passwordWork.hashes;
      const wrong = code === '000000' ? '000001' : '000000';
      expectRefused(await server.post(paths.register, { accountType: 'email', account: email, password: 'Secret123pass', code: wrong }),
        400, 'code_invalid');
      expect(passwordWork.hashes).toBe(hashes);
      expectOk(await server.post(paths.register, { accountType: 'email', account: email, password: 'Secret123pass', code }));
      expect(passwordWork.hashes).toBe(hashes + 1);
    });

    it('answers 80 wrong current passwords from a stolen session with 429, checking at most the free attempts', async () => {
      const account = await server.registerByEmail();
      const before = (await server.userByEmail(account.email!)).passwordHash;
      const verifications = passwordWork.verifications;
      const bodies = Array.from({ length: 80 }, (_, index) => ({ oldPassword: `Wrong${index}password`, newPassword: 'Stolen7password' }));
      const payloads = [];
      for (const body of bodies) payloads.push(await server.encrypt(body));
      const replies = await Promise.all(payloads.map((payload) => server.postRaw(paths.changePassword, payload, { token: account.token })));
      expect(tally(replies)).toEqual({ credentials_invalid: free(), too_many_attempts: 80 - free() });
      expect(passwordWork.verifications - verifications).toBe(free());
      expect((await server.userByEmail(account.email!)).passwordHash).toBe(before);
      expectRefused(await server.post(paths.changePassword, { oldPassword: account.password, newPassword: 'Stolen7password' },
        { token: account.token }), 429, 'too_many_attempts');
      expectOk(await server.post(paths.login, { account: account.account, password: account.password }, { ip: elsewhere() }));
    });
  });

  describe('known and unknown accounts answer alike (point 6)', () => {
    let known: Account;
    let knownPhone: Account;
    beforeAll(async () => {
      known = await server.registerByEmail();
      knownPhone = await server.registerByPhone(server.uniquePhone(), '44');
      server.clock.advance(server.limits.codeResendIntervalMs);
    });

    /** Asks the same thing about the known and an unknown account, each from a fresh address. */
    async function expectSameAnswers(ask: (account: 'known' | 'unknown') => Promise<Reply>) {
      const knownReply = await ask('known');
      const unknownReply = await ask('unknown');
      expect(unknownReply.status).toBe(knownReply.status);
      expect(withoutTime(unknownReply.body)).toEqual(withoutTime(knownReply.body));
      return knownReply;
    }

    it.each(['register', 'login', 'reset'] as const)('GET getEmailCaptcha (%s), then its refusal within the interval', async (type) => {
      const stranger = server.uniqueEmail();
      const email = (which: 'known' | 'unknown') => (which === 'known' ? known.email! : stranger);
      expectOk(await expectSameAnswers((which) => server.requestEmailCode(email(which), type, { ip: elsewhere() })));
      const again = await expectSameAnswers((which) => server.requestEmailCode(email(which), type, { ip: elsewhere() }));
      expectRefused(again, 429, 'code_send_too_soon');
    });

    it.each(['register', 'login', 'reset'] as const)('GET getPhoneCaptcha (%s)', async (type) => {
      const stranger = server.uniquePhone();
      const phone = (which: 'known' | 'unknown') => (which === 'known' ? knownPhone.phone! : stranger);
      expectOk(await expectSameAnswers((which) => server.requestPhoneCode(phone(which), '44', type, { ip: elsewhere() })));
    });

    it('POST register, resetPassword, emailLogin and phoneLogin with a guessed code', async () => {
      const stranger = server.uniqueEmail();
      const strangerPhone = server.uniquePhone();
      const email = (which: 'known' | 'unknown') => (which === 'known' ? known.email! : stranger);
      const phone = (which: 'known' | 'unknown') => (which === 'known' ? knownPhone.phone! : strangerPhone);
      const asks: ((which: 'known' | 'unknown') => Promise<Reply>)[] = [
        (which) => server.post(paths.register, { accountType: 'email', account: email(which), password: 'Secret123pass', code: '123456' }, { ip: elsewhere() }),
        (which) => server.post(paths.register, { accountType: 'phone', account: phone(which), countryCode: '44', password: 'Secret123pass', code: '123456' }, { ip: elsewhere() }),
        (which) => server.post(paths.resetPassword, { accountType: 'email', account: email(which), password: 'Secret123pass', code: '123456' }, { ip: elsewhere() }),
        (which) => server.post(paths.emailLogin, { email: email(which), code: '123456' }, { ip: elsewhere() }),
        (which) => server.post(paths.phoneLogin, { phone: phone(which), countryCode: '44', code: '123456' }, { ip: elsewhere() }),
      ];
      for (const ask of asks) expectRefused(await expectSameAnswers(ask), 400, 'code_invalid');
    });

    it('POST login with a wrong password', async () => {
      const stranger = server.uniqueEmail();
      const reply = await expectSameAnswers((which) =>
        server.post(paths.login, { account: which === 'known' ? known.account : stranger, password: 'Wrong1password' }, { ip: elsewhere() }));
      expectRefused(reply, 400, 'credentials_invalid');
    });
  });
}, { limits });

// The throttle's Redis script, against the real Redis when there is one (as scaleOut.test.ts).
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
redis.on('error', () => {});
const redisReachable = await redis.connect().then(async () => (await redis.ping()) === 'PONG', () => false);

describe.skipIf(!redisReachable)('the Redis throttle', () => {
  const policy: ThrottlePolicy = { attemptsFree: 5, lockoutBaseMs: 60_000, lockoutMaxMs: 3_600_000, forgetAfterMs: 60_000 };
  const key = `test-throttle-${process.pid}-${Date.now()}`;
  afterAll(async () => {
    await redis.del(`bourse:rl:${key}`);
    redis.disconnect();
  });

  it('allows the free attempts of 100 taken at once, and then answers the doubling lockout', async () => {
    // No fallback to memory here: a failing script must fail the test.
    const limiter = redisRateLimiter(redis, { onOutage: (error) => { throw error; } });
    const taken = await Promise.all(Array.from({ length: 100 }, () => limiter.takeAttempt(key, policy)));
    expect(taken.filter((one) => one.allowed).map((one) => one.allowed && one.attempt).sort((a, b) => Number(a) - Number(b)))
      .toEqual([1, 2, 3, 4, 5]);
    for (const refused of taken.filter((one) => !one.allowed)) {
      expect(refused.allowed === false && refused.retryAfterMs).toBeGreaterThan(59_000);
      expect(refused.allowed === false && refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    }
    expect(await redis.pttl(`bourse:rl:${key}`)).toBeGreaterThan(0);
    await limiter.reset(key);
    expect((await limiter.takeAttempt(key, policy)).allowed).toBe(true);
  });
});
if (!redisReachable) redis.disconnect();
