// A demo IEO (issue 23), once (nothing is added when any project exists): "Nova Chain" (NOVA, 8
// decimals) at 0.05 USDT a token, lots of 1 000 tokens (50 USDT), 2 000 lots on offer, at most 20 a
// person, issuing from a day ago for two weeks; its seed drawn and committed like any other.
import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import { ieoProjects, ledgerAssets } from '../../../db/schema.ts';
import type { Db } from '../../../db/client.ts';
import { seedHashOf } from '../../../../src/api/ieoDraw.ts';

const dayMs = 86_400_000;

export async function seedDemoIeo(db: Db, now: Date): Promise<void> {
  const [{ existing }] = await db.select({ existing: count() }).from(ieoProjects);
  if (existing > 0) return;
  const lotSize = 1_000n * 10n ** 8n;
  const supplyLots = 2_000n;
  const seed = randomBytes(32).toString('hex');
  const opens = Math.floor(now.getTime() / dayMs) * dayMs - dayMs;
  await db.transaction(async (tx) => {
    await tx.insert(ledgerAssets).values({ code: 'NOVA', name: 'Nova Chain', scale: 8, transferAmountMax: lotSize * supplyLots }).onConflictDoNothing();
    await tx.insert(ieoProjects).values({
      name: 'Nova Chain (NOVA) token offering',
      names: { 'zh-cn': 'Nova Chain (NOVA) 代币发行', 'zh-tw': 'Nova Chain (NOVA) 代幣發行', 'zh-hk': 'Nova Chain (NOVA) 代幣發行',
        jp: 'Nova Chain (NOVA) トークン販売', ko: 'Nova Chain (NOVA) 토큰 공모' },
      token: 'NOVA', payAsset: 'USDT', price: 50_000n, lotSize, supplyLots, perUserMaxLots: 20n,
      opensAt: new Date(opens), closesAt: new Date(opens + 15 * dayMs), payDeadline: new Date(opens + 17 * dayMs),
      listsAt: new Date(opens + 18 * dayMs), status: 'upcoming', seed, seedHash: seedHashOf(seed), createdAt: now, updatedAt: now,
    });
  });
}
