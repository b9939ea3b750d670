// Proof of liabilities shows each product's coverage (issue 22): (reserve + principal) ÷
// (principal + owed), a percent with 2 decimals rounded down, "∞" when nothing is owed and no
// principal held; drafts are left out, and the field is absent while there is no product.
import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { liabilityPaths } from '../../../src/api/contract/liabilities.ts';
import { products } from '../../../server/db/schema.ts';
import { expectOk, forEachDatabase, type TestServer } from '../helpers.ts';

const usdt = (whole: bigint) => whole * 1_000_000n;

async function addProduct(server: TestServer, values: Partial<typeof products.$inferInsert> & { name: string }) {
  const [row] = await server.db.insert(products).values({
    type: 'arbitrage', asset: 'USDT', payoutAsset: 'USDT', days: 30, minAmount: usdt(10n), maxAmount: usdt(10_000n),
    updatedAt: server.clock.now(), ...values,
  }).returning();
  return row;
}

forEachDatabase((server) => {
  it('lists every non-draft product with its reserve, owed, principal and coverage, in both answers', async () => {
    const { token } = await server.registerByEmail();
    const before = expectOk(await server.get(liabilityPaths.proof, {}, { token })).body.result;
    expect(before).not.toHaveProperty('productCoverage');
    expect(expectOk(await server.get(liabilityPaths.roots, {}, { token })).body.result).not.toHaveProperty('productCoverage');

    // (1 000 + 10 000) ÷ (10 000 + 800) = 101.851…% → "101.85".
    const covered = await addProduct(server, { name: 'Covered', reserve: usdt(1_000n), owed: usdt(800n), principal: usdt(10_000n) });
    const empty = await addProduct(server, { name: 'Nothing sold', type: 'quant', reserve: usdt(50n) });
    // Mining: reserve and owed in the mined asset (BTC, scale 8), no principal.
    const mining = await addProduct(server, {
      name: 'Miner', type: 'mining', asset: 'USDT', payoutAsset: 'BTC', reserve: 30_000_000n, owed: 20_000_000n,
    });
    await addProduct(server, { name: 'Draft', status: 'draft', reserve: 0n, owed: usdt(5n), principal: usdt(5n) });

    const expected = [
      { id: covered.id.toString(), name: 'Covered', asset: 'USDT', reserve: '1000.000000', owed: '800.000000', principal: '10000.000000', coverage: '101.85' },
      { id: empty.id.toString(), name: 'Nothing sold', asset: 'USDT', reserve: '50.000000', owed: '0.000000', principal: '0.000000', coverage: '∞' },
      { id: mining.id.toString(), name: 'Miner', asset: 'BTC', reserve: '0.30000000', owed: '0.20000000', principal: '0.000000', coverage: '150.00' },
    ];
    const proof = expectOk(await server.get(liabilityPaths.proof, {}, { token })).body.result;
    expect(proof.productCoverage).toEqual(expected);
    const roots = expectOk(await server.get(liabilityPaths.roots, {}, { token })).body.result;
    expect(roots.productCoverage).toEqual(expected);

    // Live: the figures are read at each call.
    await server.db.update(products).set({ owed: usdt(1_200n) }).where(eq(products.id, covered.id));
    const later = expectOk(await server.get(liabilityPaths.roots, {}, { token })).body.result;
    expect(later.productCoverage[0].coverage).toBe('98.21');
  });
});
