// The currencies the ledger holds. Scales follow the tokens' own decimals (USDT and USDC 6 on
// their main networks, BTC 8 satoshi, ETH 18 wei), so a deposit on chain maps to whole atomic
// units. The per-transfer ceiling is far above any real payment and far below a value scaled
// twice by mistake (10^18 wei times 10^18 again), which it turns into a refusal.
import { eq } from 'drizzle-orm';
import { ledgerAssets } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';

export interface AssetSpec {
  code: string;
  name: string;
  scale: number;
  transferAmountMaxAtomic: bigint;
}

const whole = (units: bigint, scale: number) => units * 10n ** BigInt(scale);

export const seededAssets: readonly AssetSpec[] = [
  { code: 'USDT', name: 'Tether USD', scale: 6, transferAmountMaxAtomic: whole(1_000_000_000n, 6) },
  { code: 'USDC', name: 'USD Coin', scale: 6, transferAmountMaxAtomic: whole(1_000_000_000n, 6) },
  { code: 'BTC', name: 'Bitcoin', scale: 8, transferAmountMaxAtomic: whole(21_000_000n, 8) },
  { code: 'ETH', name: 'Ether', scale: 18, transferAmountMaxAtomic: whole(200_000_000n, 18) },
];

/** Adds the assets a fresh install needs; an operator's later changes to them are kept. */
export async function seedLedgerAssets(db: Executor) {
  await db.insert(ledgerAssets).values(seededAssets.map((asset) => ({
    code: asset.code, name: asset.name, scale: asset.scale, transferAmountMax: asset.transferAmountMaxAtomic,
  }))).onConflictDoNothing();
}

export type Asset = typeof ledgerAssets.$inferSelect;

export async function findAsset(db: Executor, code: string): Promise<Asset | undefined> {
  const [asset] = await db.select().from(ledgerAssets).where(eq(ledgerAssets.code, code)).limit(1);
  return asset;
}

export async function listAssets(db: Executor): Promise<Asset[]> {
  return db.select().from(ledgerAssets).orderBy(ledgerAssets.code);
}

/** Asset scales, read once per call. */
export async function assetScales(db: Executor): Promise<Map<string, number>> {
  const rows = await db.select({ code: ledgerAssets.code, scale: ledgerAssets.scale }).from(ledgerAssets);
  return new Map(rows.map((row) => [row.code, row.scale]));
}

/** The scale of `asset` in a map from assetScales; an unknown asset is a programming error. */
export const scaleOf = (scales: Map<string, number>, asset: string) => {
  const scale = scales.get(asset);
  if (scale === undefined) throw new Error(`asset ${asset} has no scale`);
  return scale;
};
