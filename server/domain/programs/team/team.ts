// The team (issue 23): who a user invited, three levels down, and what that team earned them.
// Levels are read level by level through users.referrer_id (indexed), never by scanning users;
// deposits through wallet_recharges (indexed by user) and income through team_commissions
// (indexed by user and day). An inviter is bound once: at registration with a code, or later by
// bindInviter for an account made without one (guest, wallet or provider login) — never
// rebound, never oneself, never someone below oneself (a cycle would make a user their own
// inviter's inviter and pay commission round the loop).
import { randomInt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type {
  AssetAmount, MyTeam, ShortLink, ShortLinkUse, TeamIncomeDay, TeamLevelFigures, TeamRate, UpdateTeamRatesBody,
} from '../../../../src/api/contract/team.ts';
import { teamLevels } from '../../../../src/api/contract/team.ts';
import { ratePercentFromPpm } from '../../../../src/api/contract/products.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import { shortLinks, teamCommissionRates, users } from '../../../db/schema.ts';
import type { Db, Executor } from '../../../db/client.ts';
import { assert, badRequest, conflict, notFound } from '../../../lib/errors.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';
import { lookAlikeFreeAlphabet } from '../../kernel/passwords.ts';
import { rowsOf } from '../../../db/arrays.ts';


/** The rates a fresh install starts with: 20 %, 10 % and 5 % of the fees of levels 1, 2 and 3. */
export const defaultRatesPpm: Record<number, number> = { 1: 200_000, 2: 100_000, 3: 50_000 };
/** The most an operator may set for one level: half of the fees. */
export const ratePpmMax = 500_000;

export async function seedTeamCommissionRates(db: Executor, now = new Date()) {
  await db.insert(teamCommissionRates).values(teamLevels.map((level) => ({ level, ratePpm: defaultRatesPpm[level], updatedAt: now })))
    .onConflictDoNothing();
}

/** Rates per level in ppm; a level without a row pays nothing. */
export async function ratesPpm(db: Executor): Promise<Map<number, number>> {
  const rows = await db.select().from(teamCommissionRates);
  return new Map(rows.map((row) => [row.level, row.ratePpm]));
}

export async function listRates(db: Executor): Promise<TeamRate[]> {
  const rows = await db.select().from(teamCommissionRates);
  return teamLevels.map((level) => {
    const row = rows.find((candidate) => candidate.level === level);
    return { level, ratePercent: ratePercentFromPpm(row?.ratePpm ?? 0), ...(row ? { updatedAt: row.updatedAt.getTime() } : {}) };
  });
}

/** "12.5" % → 125 000 ppm, exactly (RateText has at most 4 decimals). */
export function ppmFromPercent(text: string): number {
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * 10_000 + Number(fraction.padEnd(4, '0'));
}

export async function updateRates(tx: Executor, body: UpdateTeamRatesBody, now: Date) {
  const levels = body.rates.map((rate) => rate.level);
  if (new Set(levels).size !== levels.length) throw badRequest('invalid_request', 'Each level may be given once.');
  for (const rate of body.rates) {
    if (ppmFromPercent(rate.ratePercent) > ratePpmMax) {
      throw badRequest('invalid_request', `A level's rate is at most ${ratePercentFromPpm(ratePpmMax)} % of the fees.`);
    }
  }
  const before = await listRates(tx);
  for (const rate of body.rates) {
    const ratePpm = ppmFromPercent(rate.ratePercent);
    await tx.insert(teamCommissionRates).values({ level: rate.level, ratePpm, updatedAt: now })
      .onConflictDoUpdate({ target: teamCommissionRates.level, set: { ratePpm, updatedAt: now } });
  }
  return { before, after: await listRates(tx) };
}

// ─── The invitation ────────────────────────────────────────────────────────────────────────────

/** The app path that opens the register form with the code filled in (features/auth/RegisterForm.tsx). */
export const invitePath = (inviteCode: string) => `/login?mode=register&inviteCode=${encodeURIComponent(inviteCode)}`;
export const appUrl = (origin: string, path: string) => `${origin}/#${path}`;
export const shortUrl = (origin: string, code: string) => `${origin}/api/s/${code}`;

const utcDay = (time: Date) => time.toISOString().slice(0, 10);

interface LevelRow { level: number; members: number; new_today: number; deposited: number }

/** Members, today's new and those with a credited deposit, per level; each level one indexed step down. */
async function levelCounts(db: Executor, userId: bigint, todayStart: Date): Promise<LevelRow[]> {
  return rowsOf<LevelRow>(await db.execute(sql`
    with recursive team(id, level, created_at) as (
      select u.id, 1, u.created_at from users u where u.referrer_id = ${userId}
      union all
      select u.id, t.level + 1, u.created_at from team t join users u on u.referrer_id = t.id where t.level < 3
    )
    select t.level::int as level, count(*)::int as members,
      count(*) filter (where t.created_at >= ${todayStart.toISOString()}::timestamptz)::int as new_today,
      count(*) filter (where exists (select 1 from wallet_recharges r where r.user_id = t.id and r.status = 1))::int as deposited
    from team t group by t.level`));
}

async function incomeByLevel(db: Executor, userId: bigint) {
  return rowsOf<{ level: number; asset: string; amount: string }>(await db.execute(sql`
    select level::int as level, asset, sum(amount)::text as amount from team_commissions
    where user_id = ${userId} group by level, asset order by asset`));
}

export async function myTeam(db: Executor, userId: bigint, origin: string, now: Date): Promise<MyTeam> {
  const [user] = await db.select({ inviteCode: users.inviteCode, referrerId: users.referrerId }).from(users).where(eq(users.id, userId));
  assert(user, `user ${userId} exists`);
  const today = utcDay(now);
  const [counts, income, rates, scales, [link]] = await Promise.all([
    levelCounts(db, userId, new Date(`${today}T00:00:00Z`)), incomeByLevel(db, userId), ratesPpm(db), assetScales(db),
    db.select({ code: shortLinks.code }).from(shortLinks).where(eq(shortLinks.userId, userId)).limit(1),
  ]);
  const amountOf = (asset: string, atomic: bigint): AssetAmount => ({ asset, amount: formatAmount(atomic, scaleOf(scales, asset)) });
  const totals = new Map<string, bigint>();
  const levels: TeamLevelFigures[] = teamLevels.map((level) => {
    const row = counts.find((candidate) => Number(candidate.level) === level);
    const earned = income.filter((candidate) => Number(candidate.level) === level);
    for (const item of earned) totals.set(item.asset, (totals.get(item.asset) ?? 0n) + BigInt(item.amount));
    return {
      level, members: Number(row?.members ?? 0), newToday: Number(row?.new_today ?? 0), deposited: Number(row?.deposited ?? 0),
      ratePercent: ratePercentFromPpm(rates.get(level) ?? 0), income: earned.map((item) => amountOf(item.asset, BigInt(item.amount))),
    };
  });
  const inviteLink = appUrl(origin, invitePath(user.inviteCode));
  return {
    inviteCode: user.inviteCode, inviteLink, qrCodeContent: inviteLink,
    ...(link ? { shortLink: shortUrl(origin, link.code) } : {}),
    teamSize: levels.reduce((sum, level) => sum + level.members, 0),
    teamIncome: amountOf('USDT', totals.get('USDT') ?? 0n).amount,
    teamIncomeByAsset: [...totals].map(([asset, amount]) => amountOf(asset, amount)),
    subordinateLevels: teamLevels.length,
    newToday: levels.reduce((sum, level) => sum + level.newToday, 0),
    depositedCount: levels.reduce((sum, level) => sum + level.deposited, 0),
    levels, hasInviter: user.referrerId !== null, today,
  };
}

/** The user's statements, one per day and asset with its levels, newest first. */
export async function incomeStatements(db: Executor, userId: bigint, pageNo: number, pageSize: number): Promise<PageOf<TeamIncomeDay>> {
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from
    (select distinct day, asset from team_commissions where user_id = ${userId}) d`));
  const rows = rowsOf<{ day: string; asset: string; level: number; members: number; fees: string; rate_ppm: number; amount: string }>(await db.execute(sql`
    with days as (
      select distinct day, asset from team_commissions where user_id = ${userId}
      order by day desc, asset limit ${pageSize} offset ${(pageNo - 1) * pageSize}
    )
    select c.day, c.asset, c.level::int as level, count(*)::int as members, sum(c.fees)::text as fees,
      max(c.rate_ppm)::int as rate_ppm, sum(c.amount)::text as amount
    from team_commissions c join days d on d.day = c.day and d.asset = c.asset
    where c.user_id = ${userId}
    group by c.day, c.asset, c.level order by c.day desc, c.asset, c.level`));
  const scales = await assetScales(db);
  const records: TeamIncomeDay[] = [];
  for (const row of rows) {
    const scale = scaleOf(scales, row.asset);
    let record = records.at(-1);
    if (!record || record.day !== row.day || record.asset !== row.asset) {
      record = { day: row.day, asset: row.asset, fees: '0', amount: '0', levels: [] };
      records.push(record);
    }
    record.levels.push({
      level: Number(row.level), members: Number(row.members), fees: formatAmount(BigInt(row.fees), scale),
      ratePercent: ratePercentFromPpm(Number(row.rate_ppm)), amount: formatAmount(BigInt(row.amount), scale),
    });
  }
  for (const record of records) {
    const scale = scaleOf(scales, record.asset);
    const sum = (pick: (level: TeamIncomeDay['levels'][number]) => string) =>
      record.levels.reduce((total, level) => total + BigInt(pick(level).replace('.', '')), 0n);
    record.fees = formatAmount(sum((level) => level.fees), scale);
    record.amount = formatAmount(sum((level) => level.amount), scale);
  }
  return { records, total: Number(total), size: pageSize, current: pageNo, pages: Math.ceil(Number(total) / pageSize) };
}

// ─── Binding an inviter ─────────────────────────────────────────────────────────────────────────

/**
 * Binds the inviter whose code is given, once. Refusals in order: unknown code, oneself
 * (invite_self), an inviter bound already (inviter_bound), an inviter below the user at any depth
 * (invite_cycle). One transaction under a lock of its own, so two binds at once cannot close a
 * loop between them. The moment is kept (referrer_bound_at): commission counts only the fees paid
 * from then on, never those of trades made before the binding (issue 38).
 */
export async function bindInviter(db: Db, userId: bigint, inviteCode: string, now: Date): Promise<{ inviterId: bigint }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('team-bind-inviter'))`);
    const [inviter] = await tx.select({ id: users.id }).from(users).where(eq(users.inviteCode, inviteCode.toUpperCase())).limit(1);
    if (!inviter) throw badRequest('invite_code_invalid', 'The invitation code does not exist.');
    if (inviter.id === userId) throw badRequest('invite_self', 'You cannot use your own invitation code.');
    const [me] = await tx.select({ referrerId: users.referrerId }).from(users).where(eq(users.id, userId)).for('update');
    assert(me, `user ${userId} exists`);
    if (me.referrerId !== null) throw conflict('inviter_bound', 'Your inviter is bound already and cannot be changed.');
    // Walk up from the inviter: meeting the user means the inviter is in the user's team.
    const [{ found }] = rowsOf<{ found: boolean }>(await tx.execute(sql`
      with recursive up(id, depth) as (
        select referrer_id, 1 from users where id = ${inviter.id}
        union all
        select u.referrer_id, up.depth + 1 from up join users u on u.id = up.id where up.id is not null and up.depth < 10000
      )
      select exists (select 1 from up where id = ${userId}) as found`));
    if (found) throw badRequest('invite_cycle', 'This code belongs to a member of your own team.');
    const updated = await tx.update(users).set({ referrerId: inviter.id, referrerBoundAt: now })
      .where(and(eq(users.id, userId), sql`${users.referrerId} is null`)).returning({ id: users.id });
    if (updated.length === 0) throw conflict('inviter_bound', 'Your inviter is bound already and cannot be changed.');
    return { inviterId: inviter.id };
  });
}

// ─── Short links ────────────────────────────────────────────────────────────────────────────────

const shortCodeLength = 7;

function newShortCode(): string {
  let code = '';
  for (let i = 0; i < shortCodeLength; i += 1) code += lookAlikeFreeAlphabet[randomInt(lookAlikeFreeAlphabet.length)];
  return code;
}

const shortLinkOf = (origin: string, row: typeof shortLinks.$inferSelect): ShortLink =>
  ({ code: row.code, url: shortUrl(origin, row.code), target: row.target, visits: row.visits });

/** The user's invitation short link, made on first call (one per user). */
export async function myShortLink(db: Db, userId: bigint, origin: string, now: Date): Promise<ShortLink> {
  const existing = async () => (await db.select().from(shortLinks).where(eq(shortLinks.userId, userId)).limit(1))[0];
  const found = await existing();
  if (found) return shortLinkOf(origin, found);
  const [user] = await db.select({ inviteCode: users.inviteCode }).from(users).where(eq(users.id, userId));
  assert(user, `user ${userId} exists`);
  return db.transaction(async (tx) => {
    // One per user: a second call racing this one waits here and then finds the first one's link.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`short-link:${userId}`}))`);
    const [again] = await tx.select().from(shortLinks).where(eq(shortLinks.userId, userId)).limit(1);
    if (again) return shortLinkOf(origin, again);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const [row] = await tx.insert(shortLinks).values({ code: newShortCode(), userId, target: invitePath(user.inviteCode), createdAt: now })
        .onConflictDoNothing().returning();
      if (row) return shortLinkOf(origin, row);
    }
    throw new Error('could not allocate a short link code');
  });
}

/** Resolves a code (case-sensitive, as short links are) and counts the visit. */
export async function useShortLink(db: Executor, code: string, origin: string, now: Date): Promise<ShortLinkUse> {
  const [row] = await db.update(shortLinks).set({ visits: sql`${shortLinks.visits} + 1`, lastVisitAt: now })
    .where(eq(shortLinks.code, code))
    .returning();
  if (!row) throw notFound('short_link_not_found', 'This link does not exist.');
  const inviteCode = /[?&]inviteCode=([A-Za-z0-9]+)/.exec(row.target)?.[1];
  return { code: row.code, target: row.target, url: appUrl(origin, row.target), ...(inviteCode ? { inviteCode } : {}), visits: row.visits };
}
