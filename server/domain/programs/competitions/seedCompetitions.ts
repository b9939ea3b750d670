// A demo trading competition (issue 23), once (nothing is added when any competition exists): in
// progress since yesterday for a week, BTC and ETH contracts, a prize table of 1 000 USDT paid
// from the prizes pool, which is funded from the house through the ledger ('reward_funding'), and
// three demo entrants (accounts that cannot log in) who joined through the real join path.
import { count } from 'drizzle-orm';
import { competitions, users } from '../../../db/schema.ts';
import type { Db } from '../../../db/client.ts';
import { openAccounts, systemShard } from '../../kernel/ledger/accounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import { joinCompetition } from './competitions.ts';

const usdt = (whole: number) => BigInt(Math.round(whole * 1_000_000));
const dayMs = 86_400_000;

export async function seedDemoCompetition(db: Db, now: Date): Promise<void> {
  const [{ existing }] = await db.select({ existing: count() }).from(competitions);
  if (existing > 0) return;
  const clock = { now: () => now };
  const prizeTable = [
    { fromRank: 1, toRank: 1, amount: String(usdt(500)) }, { fromRank: 2, toRank: 3, amount: String(usdt(150)) },
    { fromRank: 4, toRank: 10, amount: String(usdt(25)) },
  ];
  const [cup] = await db.insert(competitions).values({
    name: 'Weekly contract cup', asset: 'USDT', entryAmount: usdt(100), symbols: ['BTCUSDT', 'ETHUSDT'],
    names: { 'zh-cn': '每周合约杯', 'zh-tw': '每週合約盃', 'zh-hk': '每週合約盃', jp: '週間コントラクトカップ', ko: '주간 계약 컵' },
    startsAt: new Date(now.getTime() - dayMs), endsAt: new Date(now.getTime() + 6 * dayMs), maxParticipants: 500,
    prizeAsset: 'USDT', prizeTable, status: 'scheduled', createdAt: now, updatedAt: now,
  }).returning();
  const [house, prizes] = await openAccounts(db, [
    { ledger: 'real', asset: 'USDT', kind: 'house', shard: systemShard(`competition:${cup.id}`) },
    { ledger: 'real', asset: 'USDT', kind: 'prizes', shard: systemShard(`competition:${cup.id}`) },
  ]);
  const funded = await postTransfers(db, [{
    id: `seed-prizes-${cup.id}`, kind: 'reward_funding', reference: `competition:${cup.id}`, amountAtomic: usdt(1_000),
    debitAccountId: house, creditAccountId: prizes, remark: 'Demo prize pool',
  }], clock);
  if (!funded.ok) throw new Error(`demo prize pool refused: ${funded.refusal}`);
  for (const [index, name] of ['alice', 'bruno', 'chen'].entries()) {
    const [user] = await db.insert(users).values({
      email: `${name}.cup@demo.invalid`, username: `${name}cup`, passwordHash: '!demo-entrant-cannot-log-in', inviteCode: `CUP${index}DEMO`,
    }).onConflictDoNothing().returning({ id: users.id });
    if (!user) continue;
    const [clearing, spot] = await openAccounts(db, [
      { ledger: 'real', asset: 'USDT', kind: 'deposit_clearing', shard: systemShard(`user:${user.id}`) },
      { ledger: 'real', asset: 'USDT', kind: 'spot', ownerUserId: user.id },
    ]);
    const deposit = await postTransfers(db, [{
      id: `seed-cup-deposit-${user.id}`, kind: 'deposit', reference: `seed-cup:${user.id}`, amountAtomic: usdt(500),
      debitAccountId: clearing, creditAccountId: spot,
    }], clock);
    if (!deposit.ok) throw new Error(`demo entrant deposit refused: ${deposit.refusal}`);
    await joinCompetition(db, { now: () => new Date(now.getTime() - dayMs + (index + 1) * 3_600_000) }, user.id, cup.id, `seed-cup-join-${user.id}`);
  }
}
