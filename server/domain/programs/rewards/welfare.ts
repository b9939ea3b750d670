// The welfare centre (issue 23): tasks whose progress is computed from the user's real records,
// a reward per task paid once from the `rewards` pool, and a daily check-in.
//
//   first_deposit   deposits credited (wallet_recharges status 1)
//   kyc_basic       a verification (basic or advanced) approved
//   first_trade     real contracts opened plus real second-contract orders
//   first_product   investment product orders
//   invite_deposit  invited people (users.referrer_id = me) with a credited deposit and an approved
//                   basic verification, counted once per verified person other than the caller
//   checkin_streak  consecutive UTC days checked in, ending today (or yesterday before today's)
//
// Progress is min(count, target). Rewards are paid to verified accounts only (issue 38): a claim
// without an approved basic verification is refused (verification_required) before anything is
// written. A claim inserts the (task, user) row, then pays under the pool's lock with the transfer
// id `welfare:<task>:<user>`, all in one transaction: a second claim finds the row (task_claimed),
// an empty pool rolls everything back (pool_insufficient).
import { and, asc, count, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type {
  AdminWelfareTask, WelfareCheckin, WelfareClaimResult, WelfareKind, WelfareTask, WelfareTaskBody, WelfareTasks, WelfareTaskUpdateBody,
} from '../../../../src/api/contract/rewards.ts';
import {
  kycApplications, productOrders, secondContractOrders, tradePositions, users, walletRecharges, welfareCheckins, welfareClaims, welfareTasks,
} from '../../../db/schema.ts';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError, conflict, notFound } from '../../../lib/errors.ts';
import { verifiedPersonKey, verifiedPersonKeys } from '../../core/identity/kyc.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import { ledgers, userAccountId } from '../../kernel/ledger/accounts.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';
import { nameIn } from '../../kernel/shared/names.ts';
import { recordStatus } from '../../../../src/api/contract/wallet.ts';
import { parsePositive, payFromPool } from './fundings.ts';

type TaskRow = typeof welfareTasks.$inferSelect;

export const utcDayOf = (time: Date) => time.toISOString().slice(0, 10);
const dayBefore = (day: string) => utcDayOf(new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000));

/** The six tasks of a fresh install (USDT atomic, scale 6), written once when there are none. */
const defaultTasks: Array<{ kind: WelfareKind; name: string; names: Record<string, string>; target: number; reward: bigint }> = [
  { kind: 'first_deposit', name: 'Make your first deposit', names: { 'zh-cn': '完成首次充值', 'zh-tw': '完成首次儲值', 'zh-hk': '完成首次存款', jp: '初めての入金', ko: '첫 입금하기', vl: 'Nạp tiền lần đầu', tai: 'ฝากเงินครั้งแรก', mlxy: 'Buat deposit pertama', xi: 'Haz tu primer depósito' }, target: 1, reward: 5_000000n },
  { kind: 'kyc_basic', name: 'Complete basic verification', names: { 'zh-cn': '完成初级认证', 'zh-tw': '完成初級認證', 'zh-hk': '完成初級認證', jp: '基本本人確認を完了', ko: '기본 인증 완료', vl: 'Hoàn tất xác minh cơ bản', tai: 'ยืนยันตัวตนขั้นพื้นฐาน', mlxy: 'Lengkapkan pengesahan asas', xi: 'Completa la verificación básica' }, target: 1, reward: 2_000000n },
  { kind: 'first_trade', name: 'Place your first trade', names: { 'zh-cn': '完成首笔交易', 'zh-tw': '完成首筆交易', 'zh-hk': '完成首次交易', jp: '初めての取引', ko: '첫 거래하기', vl: 'Thực hiện giao dịch đầu tiên', tai: 'เทรดครั้งแรก', mlxy: 'Buat dagangan pertama', xi: 'Haz tu primera operación' }, target: 1, reward: 3_000000n },
  { kind: 'first_product', name: 'Buy your first investment product', names: { 'zh-cn': '首次购买理财产品', 'zh-tw': '首次購買理財產品', 'zh-hk': '首次購買理財產品', jp: '初めての投資商品購入', ko: '첫 투자 상품 구매', vl: 'Mua sản phẩm đầu tư đầu tiên', tai: 'ซื้อผลิตภัณฑ์การลงทุนครั้งแรก', mlxy: 'Beli produk pelaburan pertama', xi: 'Compra tu primer producto de inversión' }, target: 1, reward: 3_000000n },
  { kind: 'invite_deposit', name: 'Invite 3 friends who deposit', names: { 'zh-cn': '邀请 3 位好友充值', 'zh-tw': '邀請 3 位好友儲值', 'zh-hk': '邀請 3 位朋友存款', jp: '入金する友達を3人招待', ko: '입금하는 친구 3명 초대', vl: 'Mời 3 bạn bè nạp tiền', tai: 'เชิญเพื่อน 3 คนที่ฝากเงิน', mlxy: 'Jemput 3 rakan yang membuat deposit', xi: 'Invita a 3 amigos que depositen' }, target: 3, reward: 15_000000n },
  { kind: 'checkin_streak', name: 'Check in 7 days in a row', names: { 'zh-cn': '连续签到 7 天', 'zh-tw': '連續簽到 7 天', 'zh-hk': '連續簽到 7 日', jp: '7日連続でチェックイン', ko: '7일 연속 출석', vl: 'Điểm danh 7 ngày liên tiếp', tai: 'เช็กอินติดต่อกัน 7 วัน', mlxy: 'Daftar masuk 7 hari berturut-turut', xi: 'Regístrate 7 días seguidos' }, target: 7, reward: 1_000000n },
];

export async function seedWelfareTasks(db: Executor, now = new Date()): Promise<void> {
  const [any] = await db.select({ id: welfareTasks.id }).from(welfareTasks).limit(1);
  if (any) return;
  await db.insert(welfareTasks).values(defaultTasks.map((task, index) => ({
    kind: task.kind, name: task.name, names: task.names, target: task.target, rewardAsset: 'USDT', rewardAmount: task.reward,
    sort: index * 10, updatedAt: now,
  })));
}

/** Consecutive check-in days ending today, or ending yesterday when today has none yet. */
export async function checkinStreak(db: Executor, userId: bigint, today: string): Promise<{ streak: number; today: boolean }> {
  const rows = await db.select({ day: welfareCheckins.day }).from(welfareCheckins)
    .where(and(eq(welfareCheckins.userId, userId), gte(welfareCheckins.day, utcDayOf(new Date(Date.parse(`${today}T00:00:00Z`) - 400 * 86_400_000)))))
    .orderBy(desc(welfareCheckins.day));
  const days = new Set(rows.map((row) => row.day));
  const checkedToday = days.has(today);
  let day = checkedToday ? today : dayBefore(today);
  let streak = 0;
  while (days.has(day)) { streak += 1; day = dayBefore(day); }
  return { streak, today: checkedToday };
}

/** The user's raw count for each kind asked for. */
async function counts(db: Executor, userId: bigint, kinds: ReadonlySet<WelfareKind>, today: string): Promise<Map<WelfareKind, number>> {
  const out = new Map<WelfareKind, number>();
  const one = async (query: Promise<Array<{ n: number }>>) => Number((await query)[0]?.n ?? 0);
  if (kinds.has('first_deposit')) {
    out.set('first_deposit', await one(db.select({ n: count() }).from(walletRecharges)
      .where(and(eq(walletRecharges.userId, userId), eq(walletRecharges.status, recordStatus.delivered)))));
  }
  if (kinds.has('kyc_basic')) {
    out.set('kyc_basic', await one(db.select({ n: count() }).from(kycApplications)
      .where(and(eq(kycApplications.userId, userId), eq(kycApplications.status, 'approved'), gte(kycApplications.level, 1)))));
  }
  if (kinds.has('first_trade')) {
    const positions = await one(db.select({ n: count() }).from(tradePositions)
      .where(and(eq(tradePositions.userId, userId), eq(tradePositions.ledger, ledgers.real))));
    const seconds = await one(db.select({ n: count() }).from(secondContractOrders)
      .where(and(eq(secondContractOrders.userId, userId), eq(secondContractOrders.ledger, ledgers.real))));
    out.set('first_trade', positions + seconds);
  }
  if (kinds.has('first_product')) {
    out.set('first_product', await one(db.select({ n: count() }).from(productOrders).where(eq(productOrders.userId, userId))));
  }
  if (kinds.has('invite_deposit')) out.set('invite_deposit', await verifiedInviteesWithDeposit(db, userId));
  if (kinds.has('checkin_streak')) out.set('checkin_streak', (await checkinStreak(db, userId, today)).streak);
  return out;
}

/** Invitees looked at for the invitation task: far above any target (at most 1 000). */
export const inviteesCountedMax = 5_000;

/**
 * The invited people who deposited: invitees with a credited deposit and an approved basic
 * verification, one per verified person (two accounts on one document count once) and never the
 * caller's own person (their second account is not a friend).
 */
async function verifiedInviteesWithDeposit(db: Executor, userId: bigint): Promise<number> {
  const invitees = await db.selectDistinct({ id: users.id }).from(users)
    .innerJoin(walletRecharges, and(eq(walletRecharges.userId, users.id), eq(walletRecharges.status, recordStatus.delivered)))
    .innerJoin(kycApplications, and(eq(kycApplications.userId, users.id), eq(kycApplications.level, 1), eq(kycApplications.status, 'approved')))
    .where(eq(users.referrerId, userId)).orderBy(asc(users.id)).limit(inviteesCountedMax);
  const persons = await verifiedPersonKeys(db, [...invitees.map((row) => row.id), userId]);
  const mine = persons.get(userId);
  persons.delete(userId);
  const distinct = new Set(persons.values());
  if (mine !== undefined) distinct.delete(mine);
  return distinct.size;
}

async function progressOf(db: Executor, userId: bigint, tasks: readonly TaskRow[], today: string) {
  const raw = await counts(db, userId, new Set(tasks.map((task) => task.kind as WelfareKind)), today);
  return new Map(tasks.map((task) => [task.id, Math.min(raw.get(task.kind as WelfareKind) ?? 0, task.target)]));
}

/** Every enabled task with the caller's progress and state, and today's check-in. */
export async function myWelfareTasks(db: Executor, userId: bigint, lang: string | undefined, now: Date): Promise<WelfareTasks> {
  const today = utcDayOf(now);
  const tasks = await db.select().from(welfareTasks).where(eq(welfareTasks.enabled, true)).orderBy(asc(welfareTasks.sort), asc(welfareTasks.id));
  const [progress, claims, streak, scales, personKey] = await Promise.all([
    progressOf(db, userId, tasks, today),
    tasks.length === 0 ? [] : db.select().from(welfareClaims).where(and(eq(welfareClaims.userId, userId), inArray(welfareClaims.taskId, tasks.map((task) => task.id)))),
    checkinStreak(db, userId, today),
    assetScales(db),
    verifiedPersonKey(db, userId),
  ]);
  const claimed = new Map(claims.map((claim) => [claim.taskId, claim]));
  return {
    tasks: tasks.map((task): WelfareTask => {
      const done = progress.get(task.id) ?? 0;
      const claim = claimed.get(task.id);
      return {
        id: task.id.toString(), kind: task.kind as WelfareKind, name: nameIn(task, lang), progress: claim ? task.target : done, target: task.target,
        rewardAsset: task.rewardAsset, rewardAmount: formatAmount(task.rewardAmount, scaleOf(scales, task.rewardAsset)),
        state: claim ? 'claimed' : done >= task.target ? 'claimable' : 'in_progress',
        ...(claim ? { claimedAt: claim.createdAt.getTime() } : {}),
      };
    }),
    checkedInToday: streak.today,
    checkinStreak: streak.streak,
    verified: personKey !== null,
  };
}

/** The refusal of a reward to an account without an approved basic verification (issue 38). */
export const verificationRequired = () => new AppError(403, 'verification_required',
  'Rewards are paid to verified accounts: please complete basic identity verification first.');

/**
 * Pays a done task's reward once; task_not_found, task_claimed, task_not_done,
 * verification_required, pool_insufficient (in that order) move nothing.
 */
export async function claimWelfareTask(db: Db, userId: bigint, taskId: bigint, now: Date): Promise<WelfareClaimResult> {
  return db.transaction(async (tx) => {
    const [task] = await tx.select().from(welfareTasks).where(and(eq(welfareTasks.id, taskId), eq(welfareTasks.enabled, true)));
    if (!task) throw notFound('task_not_found', 'There is no such task.');
    const [already] = await tx.select({ taskId: welfareClaims.taskId }).from(welfareClaims)
      .where(and(eq(welfareClaims.taskId, taskId), eq(welfareClaims.userId, userId)));
    if (already) throw conflict('task_claimed', 'You have claimed this reward already.');
    const progress = (await progressOf(tx, userId, [task], utcDayOf(now))).get(task.id) ?? 0;
    if (progress < task.target) throw conflict('task_not_done', 'This task is not done yet.');
    if (await verifiedPersonKey(tx, userId) === null) throw verificationRequired();
    const transferId = `welfare:${task.id}:${userId}`;
    const inserted = await tx.insert(welfareClaims).values({ taskId, userId, amount: task.rewardAmount, transferId, createdAt: now })
      .onConflictDoNothing().returning({ taskId: welfareClaims.taskId });
    if (inserted.length === 0) throw conflict('task_claimed', 'You have claimed this reward already.');
    const spot = await userAccountId(tx, userId, task.rewardAsset, 'spot');
    await payFromPool(tx, {
      pool: 'rewards', asset: task.rewardAsset, amountAtomic: task.rewardAmount, creditAccountId: spot, transferId,
      kind: 'welfare_reward', reference: `welfare:${task.id}`, remark: `welfare task ${task.id}`,
    }, now);
    const scale = scaleOf(await assetScales(tx), task.rewardAsset);
    return { taskId: task.id.toString(), asset: task.rewardAsset, amount: formatAmount(task.rewardAmount, scale), transferId };
  });
}

/** Today's check-in (checkin_done_today when there is one). */
export async function checkIn(db: Executor, userId: bigint, now: Date): Promise<WelfareCheckin> {
  const day = utcDayOf(now);
  const inserted = await db.insert(welfareCheckins).values({ userId, day, createdAt: now }).onConflictDoNothing()
    .returning({ day: welfareCheckins.day });
  if (inserted.length === 0) throw conflict('checkin_done_today', 'You have checked in today already; come back tomorrow.');
  return { day, checkinStreak: (await checkinStreak(db, userId, day)).streak };
}

// ─── The operator's side ─────────────────────────────────────────────────────────────────────────

async function adminWire(db: Executor, row: TaskRow, scales: Map<string, number>): Promise<AdminWelfareTask> {
  const [figures] = await db.select({ n: count(), paid: sql<string>`coalesce(sum(${welfareClaims.amount}), 0)::text` })
    .from(welfareClaims).where(eq(welfareClaims.taskId, row.id));
  const scale = scaleOf(scales, row.rewardAsset);
  return {
    id: row.id.toString(), kind: row.kind as WelfareKind, name: row.name, names: row.names, target: row.target,
    rewardAsset: row.rewardAsset, rewardAmount: formatAmount(row.rewardAmount, scale), enabled: row.enabled, sort: row.sort,
    claims: Number(figures?.n ?? 0), paid: formatAmount(BigInt(figures?.paid ?? '0'), scale),
  };
}

export async function listAdminWelfareTasks(db: Executor): Promise<AdminWelfareTask[]> {
  const rows = await db.select().from(welfareTasks).orderBy(asc(welfareTasks.sort), asc(welfareTasks.id));
  const scales = await assetScales(db);
  const out: AdminWelfareTask[] = [];
  for (const row of rows) out.push(await adminWire(db, row, scales));
  return out;
}

function rewardOf(scales: Map<string, number>, asset: string, amount: string): bigint {
  const scale = scales.get(asset);
  if (scale === undefined) throw new AppError(400, 'currency_unknown', `There is no asset ${asset}.`);
  return parsePositive(amount, scale);
}

export async function createWelfareTask(db: Executor, body: WelfareTaskBody, now: Date): Promise<AdminWelfareTask> {
  const scales = await assetScales(db);
  const rewardAmount = rewardOf(scales, body.rewardAsset, body.rewardAmount);
  const [row] = await db.insert(welfareTasks).values({
    kind: body.kind, name: body.name.trim(), names: body.names ?? {}, target: body.target ?? 1, rewardAsset: body.rewardAsset,
    rewardAmount, enabled: body.enabled ?? true, sort: body.sort ?? 0, createdAt: now, updatedAt: now,
  }).returning();
  return adminWire(db, row, scales);
}

export async function updateWelfareTask(db: Executor, id: bigint, body: WelfareTaskUpdateBody, now: Date) {
  const [row] = await db.select().from(welfareTasks).where(eq(welfareTasks.id, id)).for('update');
  if (!row) throw notFound('task_not_found', 'There is no such task.');
  const scales = await assetScales(db);
  const before = await adminWire(db, row, scales);
  const asset = body.rewardAsset ?? row.rewardAsset;
  const rewardAmount = body.rewardAmount !== undefined ? rewardOf(scales, asset, body.rewardAmount) : row.rewardAmount;
  if (asset !== row.rewardAsset && body.rewardAmount === undefined) {
    throw new AppError(400, 'invalid_request', 'Please give the reward amount in the new asset as well.');
  }
  const [updated] = await db.update(welfareTasks).set({
    ...(body.name !== undefined ? { name: body.name.trim() } : {}), ...(body.names !== undefined ? { names: body.names } : {}),
    ...(body.target !== undefined ? { target: body.target } : {}), rewardAsset: asset, rewardAmount,
    ...(body.enabled !== undefined ? { enabled: body.enabled } : {}), ...(body.sort !== undefined ? { sort: body.sort } : {}), updatedAt: now,
  }).where(eq(welfareTasks.id, id)).returning();
  return { before, after: await adminWire(db, updated, scales) };
}
