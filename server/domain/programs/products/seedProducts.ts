// Demo products (issue 22), once (nothing is added when any product exists): two arbitrage
// products, an AI quant product, a mining machine (BTC) and a bond raise, each at an honest rate
// (0.03–0.08 % a day, not "1.5 % a day"), with reserves funded from the house through the
// ledger (so coverage is real) and a published mining reward figure with its source.
import { count } from 'drizzle-orm';
import { miningRewards, products } from '../../../db/schema.ts';
import type { Db } from '../../../db/client.ts';
import { openAccounts, systemShard } from '../../kernel/ledger/accounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import { addToFigures } from './products.ts';
import { dayMs, dayOf, midnightOf } from '../../kernel/shared/days.ts';

const usdt = (whole: number) => BigInt(Math.round(whole * 1_000_000));
const btc = (text: string) => BigInt(Math.round(Number(text) * 1e8));

export async function seedDemoProducts(db: Db, now: Date): Promise<void> {
  const [{ existing }] = await db.select({ existing: count() }).from(products);
  if (existing > 0) return;
  const base = {
    firstDayRule: 'next_day', minLevel: 0, perUserMax: 0n, totalCap: 0n, earlyRedeem: false, earlyRedeemFeePpm: 0,
    createdAt: now, updatedAt: now, status: 'open',
  } as const;
  const seeds: Array<{ values: typeof products.$inferInsert; reserve: bigint }> = [
    {
      values: {
        ...base, type: 'arbitrage', name: 'Stable arbitrage 7 days', asset: 'USDT', payoutAsset: 'USDT', days: 7, dailyRatePpm: 300,
        names: { 'zh-cn': '稳健套利 7 天', 'zh-tw': '穩健套利 7 天', 'zh-hk': '穩健套利 7 天', ko: '안정 차익거래 7일', jp: '安定アービトラージ 7日' },
        minAmount: usdt(100), maxAmount: usdt(50_000), perUserMax: usdt(100_000), totalCap: usdt(2_000_000), earlyRedeem: true,
        earlyRedeemFeePpm: 5_000, firstDayRule: 'full',
      },
      reserve: usdt(5_000),
    },
    {
      values: {
        ...base, type: 'arbitrage', name: 'Arbitrage 30 days', asset: 'USDT', payoutAsset: 'USDT', days: 30, dailyRatePpm: 500,
        names: { 'zh-cn': '套利 30 天', 'zh-tw': '套利 30 天', 'zh-hk': '套利 30 天', ko: '차익거래 30일', jp: 'アービトラージ 30日' },
        minAmount: usdt(500), maxAmount: usdt(100_000), totalCap: usdt(1_000_000), minLevel: 1,
      },
      reserve: usdt(15_000),
    },
    {
      values: {
        ...base, type: 'quant', name: 'AI quant 90 days', asset: 'USDT', payoutAsset: 'USDT', days: 90, dailyRatePpm: 800,
        names: { 'zh-cn': 'AI 量化 90 天', 'zh-tw': 'AI 量化 90 天', 'zh-hk': 'AI 量化 90 天', ko: 'AI 퀀트 90일', jp: 'AIクオンツ 90日' },
        minAmount: usdt(1_000), maxAmount: usdt(200_000), totalCap: usdt(500_000),
      },
      reserve: usdt(36_000),
    },
    {
      values: {
        ...base, type: 'mining', name: 'Antminer S21 rental, 180 days', asset: 'USDT', payoutAsset: 'BTC', days: 180, dailyRatePpm: 0,
        names: { 'zh-cn': '蚂蚁矿机 S21 租赁 180 天', 'zh-tw': '螞蟻礦機 S21 租賃 180 天', 'zh-hk': '螞蟻礦機 S21 租賃 180 天' },
        minAmount: usdt(300), maxAmount: usdt(30_000), totalCap: usdt(300_000), unitPrice: usdt(300),
        machine: {
          manufacturer: 'Bitmain Antminer S21', hashrateThs: '200', powerW: 3500, size: '400 × 195 × 290 mm', weightKg: '15.4',
          temperature: '0–40 °C', humidity: '10–90 % RH', network: 'Bitcoin (SHA-256)',
        },
      },
      reserve: btc('0.5'),
    },
    {
      values: {
        ...base, type: 'bond', name: 'Working-capital bond, 60 days', asset: 'USDT', payoutAsset: 'USDT', days: 60, dailyRatePpm: 400,
        names: { 'zh-cn': '营运资金债券 60 天', 'zh-tw': '營運資金債券 60 天', 'zh-hk': '營運資金債券 60 天' },
        minAmount: usdt(100), maxAmount: usdt(20_000), target: usdt(100_000), closesAt: new Date(midnightOf(now) + 14 * dayMs),
        opensAt: now,
      },
      reserve: usdt(2_400),
    },
  ];
  for (const seed of seeds) {
    await db.transaction(async (tx) => {
      const [row] = await tx.insert(products).values(seed.values).returning();
      const shardKey = `product:${row.id}`;
      const [house, reserve] = await openAccounts(tx, [
        { ledger: 'real', asset: row.payoutAsset, kind: 'house', shard: systemShard(shardKey) },
        { ledger: 'real', asset: row.payoutAsset, kind: 'product_reserve', shard: systemShard(shardKey) },
      ]);
      const result = await postTransfers(tx, [{
        id: `rf-seed-${row.id}`, kind: 'reserve_funding', reference: `product:${row.id}`, amountAtomic: seed.reserve,
        debitAccountId: house, creditAccountId: reserve, remark: 'demo reserve',
      }], { now: () => now });
      if (!result.ok) throw new Error(`demo reserve refused: ${result.refusal}`);
      await addToFigures(tx, row.id, { reserve: seed.reserve }, now);
    });
  }
  // About 70 sat per TH/s a day and 0.06 USDT per kWh: in line with public hashprice figures.
  await db.insert(miningRewards).values({
    asset: 'BTC', day: dayOf(now), rewardPerThsDay: 70n, electricityPerKwh: 60_000n,
    source: `operator estimate from public network difficulty and block subsidy, ${dayOf(now)}`, createdAt: now,
  }).onConflictDoNothing();
}
