// The Merkle sum tree of the proof of liabilities, as pure functions (src/api/contract/liabilityTree.ts):
// for any set of users and balances every leaf's path verifies to the root, the root's totals are
// the per-asset sums, and changing any balance, salt, sibling hash or sum makes verification fail.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildLevels, leafIdOf, leafNode, paddedLeafCount, paddedLeafCountMin, paddingLeafNode, pathOf, rootHash, toHex, u128, u128Limit,
  verifyLiabilityProof, type TreeAsset, type TreeBottomInput,
} from '../../../src/api/contract/liabilityTree.ts';
import { formatAmount } from '../../../src/api/contract/amounts.ts';
import type { LiabilityProof, LiabilityRoot } from '../../../src/api/contract/liabilities.ts';
import { buildLevelsInSlices } from '../../../server/domain/core/wallet/liabilities.ts';

const assets: TreeAsset[] = [{ currency: 'BTC', scale: 8 }, { currency: 'ETH', scale: 18 }, { currency: 'USDT', scale: 6 }];

interface User { id: string; salt: Uint8Array; balances: bigint[] }

/** Builds a publication the way the server does (without the shuffle) and a proof per user. */
function publish(users: User[]) {
  const leaves = users.map((user) => ({ salt: user.salt, leafId: leafIdOf(user.salt, user.id), balances: user.balances }));
  const levels = buildLevels(assets.length, leaves);
  const top = levels[levels.length - 1][0];
  const root: LiabilityRoot = {
    id: '1', time: 0, root: toHex(rootHash(assets, top)), leafCount: users.length, trigger: 'operator',
    totals: assets.map((asset, i) => ({ currency: asset.currency, scale: asset.scale, total: formatAmount(top.sums[i], asset.scale) })),
  };
  const proofs: LiabilityProof[] = users.map((user, index) => ({
    userId: user.id, index, salt: toHex(user.salt), leafId: toHex(leaves[index].leafId),
    balances: user.balances.map((balance, i) => ({ currency: assets[i].currency, amount: formatAmount(balance, assets[i].scale) })),
    path: pathOf(levels, index).map((node) => ({ hash: toHex(node.hash), sums: node.sums.map((sum, i) => formatAmount(sum, assets[i].scale)) })),
  }));
  return { root, proofs, top };
}

const balance = fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 10n ** 30n }));
const user = fc.record({
  salt: fc.uint8Array({ minLength: 32, maxLength: 32 }),
  balances: fc.tuple(balance, balance, balance).map((values) => [...values]),
});
const users = fc.array(user, { minLength: 1, maxLength: 40 }).map((list) => list.map((item, i): User => ({ ...item, id: String(1000 + i) })));

describe('liability tree', () => {
  it('every leaf verifies to the root, and the totals are the sums of the balances per asset', () => {
    fc.assert(fc.property(users, (list) => {
      const { root, proofs, top } = publish(list);
      for (let i = 0; i < assets.length; i += 1) {
        expect(top.sums[i]).toBe(list.reduce((sum, item) => sum + item.balances[i], 0n));
      }
      for (const proof of proofs) {
        const check = verifyLiabilityProof(root, proof, proof.userId);
        expect(check).toMatchObject({ ok: true });
        expect(proof.path.length).toBe(Math.ceil(Math.log2(list.length)));
      }
    }), { numRuns: 60 });
  });

  it('fails when a balance, the salt, the user, the index, a sibling hash, a sibling sum or a total is changed', () => {
    fc.assert(fc.property(users.filter((list) => list.length >= 2), fc.nat(), fc.nat(), (list, pick, at) => {
      const { root, proofs } = publish(list);
      const proof = proofs[pick % proofs.length];
      const asset = at % assets.length;
      const step = at % proof.path.length;
      const plusOne = (text: string, scale: number) => formatAmount(BigInt(text.replace('.', '')) + 1n, scale);
      const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
      const tampered: Array<[string, LiabilityRoot, LiabilityProof]> = [
        ['balance', root, { ...proof, balances: proof.balances.map((b, i) => (i === asset ? { ...b, amount: plusOne(b.amount, assets[i].scale) } : b)) }],
        ['salt', root, { ...proof, salt: flip(proof.salt) }],
        ['user', root, { ...proof, userId: `${proof.userId}1` }],
        ['leaf id', root, { ...proof, leafId: flip(proof.leafId) }],
        ['index', root, { ...proof, index: proof.index ^ 1 }],
        ['sibling hash', root, { ...proof, path: proof.path.map((s, i) => (i === step ? { ...s, hash: flip(s.hash) } : s)) }],
        ['sibling sum', root, {
          ...proof, path: proof.path.map((s, i) => (i === step ? { ...s, sums: s.sums.map((sum, k) => (k === asset ? plusOne(sum, assets[k].scale) : sum)) } : s)),
        }],
        ['total', { ...root, totals: root.totals.map((t, i) => (i === asset ? { ...t, total: plusOne(t.total, t.scale) } : t)) }, proof],
        ['root', { ...root, root: flip(root.root) }, proof],
      ];
      for (const [what, changedRoot, changedProof] of tampered) {
        const check = verifyLiabilityProof(changedRoot, changedProof);
        if (check.ok) throw new Error(`a changed ${what} still verified`);
      }
    }), { numRuns: 60 });
  });

  it('refuses a proof meant for another user', () => {
    const { root, proofs } = publish([
      { id: '7', salt: new Uint8Array(32).fill(1), balances: [1n, 2n, 3n] },
      { id: '8', salt: new Uint8Array(32).fill(2), balances: [4n, 5n, 6n] },
    ]);
    expect(verifyLiabilityProof(root, proofs[0], '7').ok).toBe(true);
    expect(verifyLiabilityProof(root, proofs[0], '8')).toEqual({ ok: false, failure: 'leaf_id' });
  });

  it('cannot carry a negative balance or sum: u128 has no sign, and the wire refuses a minus', () => {
    expect(() => u128(-1n)).toThrow(RangeError);
    expect(() => u128(u128Limit)).toThrow(RangeError);
    expect(toHex(u128(258n))).toBe('00000000000000000000000000000102');
    const { root, proofs } = publish([
      { id: '7', salt: new Uint8Array(32).fill(1), balances: [5n, 0n, 0n] },
      { id: '8', salt: new Uint8Array(32).fill(2), balances: [0n, 0n, 0n] },
    ]);
    // The neighbour's sums written negative (so the total could look smaller) never verify.
    const negative = { ...proofs[0], path: [{ ...proofs[0].path[0], sums: ['-0.00000001', '0.000000000000000000', '0.000000'] }] };
    expect(verifyLiabilityProof(root, negative).ok).toBe(false);
  });

  it('pads an odd level with the documented pad node', () => {
    const { root, proofs } = publish([1, 2, 3].map((n) => ({ id: String(n), salt: new Uint8Array(32).fill(n), balances: [BigInt(n), 0n, 0n] })));
    const pad = proofs[2].path[0];
    expect(pad.sums).toEqual(['0.00000000', '0.000000000000000000', '0.000000']);
    expect(pad.hash).toBe(createHash('sha256').update('BPOL-PAD').digest('hex'));
    expect(verifyLiabilityProof(root, proofs[2]).ok).toBe(true);
    expect(root.totals[0].total).toBe('0.00000006');
  });

  it('pads to the next power of two, at least the minimum, so the leaf count hides the user count', () => {
    expect(paddedLeafCountMin).toBe(16);
    expect([0, 1, 15, 16, 17, 32, 33, 4_101].map(paddedLeafCount)).toEqual([16, 16, 16, 16, 32, 32, 64, 8_192]);
    expect(() => paddedLeafCount(-1)).toThrow(RangeError);
    expect(() => paddedLeafCount(1.5)).toThrow(RangeError);
  });

  it('hashes a padding leaf with its own tag and salt, zero sums, unlike any user leaf with that salt', () => {
    const salt = new Uint8Array(32).fill(9);
    const padding = paddingLeafNode(salt, assets.length);
    expect(toHex(padding.hash)).toBe(createHash('sha256').update('BPOL-PADLEAF').update(salt).digest('hex'));
    expect(padding.sums).toEqual([0n, 0n, 0n]);
    const asUser = leafNode({ salt, leafId: leafIdOf(salt, '1'), balances: [0n, 0n, 0n] });
    expect(toHex(asUser.hash)).not.toBe(toHex(padding.hash));
    // Two padding leaves with different salts look unrelated, as two users' leaves do.
    expect(toHex(paddingLeafNode(new Uint8Array(32).fill(10), assets.length).hash)).not.toBe(toHex(padding.hash));
  });

  it('every user of a padded tree verifies, the totals are unchanged, and a padding position cannot be claimed', () => {
    fc.assert(fc.property(users, fc.array(fc.nat(), { minLength: 64, maxLength: 64 }), (list, order) => {
      const size = paddedLeafCount(list.length);
      const bottom: Array<TreeBottomInput & { userIndex?: number }> = list.map((item, userIndex) => ({
        salt: item.salt, leafId: leafIdOf(item.salt, item.id), balances: item.balances, userIndex,
      }));
      for (let i = list.length; i < size; i += 1) bottom.push({ padding: true, salt: new Uint8Array(32).fill(i % 251) });
      // A shuffle from the generated numbers, as the server shuffles with its random source.
      for (let i = bottom.length - 1; i > 0; i -= 1) {
        const j = order[i % order.length] % (i + 1);
        [bottom[i], bottom[j]] = [bottom[j], bottom[i]];
      }
      const levels = buildLevels(assets.length, bottom);
      expect(levels[0]).toHaveLength(size);
      const top = levels[levels.length - 1][0];
      const root: LiabilityRoot = {
        id: '1', time: 0, root: toHex(rootHash(assets, top)), leafCount: size, trigger: 'operator',
        totals: assets.map((asset, i) => ({ currency: asset.currency, scale: asset.scale, total: formatAmount(top.sums[i], asset.scale) })),
      };
      for (let i = 0; i < assets.length; i += 1) expect(top.sums[i]).toBe(list.reduce((sum, item) => sum + item.balances[i], 0n));
      const wire = (node: { hash: Uint8Array; sums: bigint[] }) => ({ hash: toHex(node.hash), sums: node.sums.map((sum, i) => formatAmount(sum, assets[i].scale)) });
      bottom.forEach((input, index) => {
        if ('padding' in input) {
          // Someone holding a padding leaf's salt still cannot pass it off as a user's zero leaf.
          const leafId = leafIdOf(input.salt, '4242');
          const claim: LiabilityProof = {
            userId: '4242', index, salt: toHex(input.salt), leafId: toHex(leafId),
            balances: assets.map((asset) => ({ currency: asset.currency, amount: formatAmount(0n, asset.scale) })),
            path: pathOf(levels, index).map(wire),
          };
          expect(verifyLiabilityProof(root, claim).ok).toBe(false);
          return;
        }
        const item = list[input.userIndex!];
        const proof: LiabilityProof = {
          userId: item.id, index, salt: toHex(item.salt), leafId: toHex(input.leafId),
          balances: item.balances.map((value, i) => ({ currency: assets[i].currency, amount: formatAmount(value, assets[i].scale) })),
          path: pathOf(levels, index).map(wire),
        };
        expect(proof.path).toHaveLength(Math.log2(size));
        expect(verifyLiabilityProof(root, proof, item.id)).toMatchObject({ ok: true });
      });
    }), { numRuns: 30 });
  });

  it('builds the same tree on the server in slices as the shared code at once', async () => {
    for (const n of [0, 1, 2, 3, 7, 4_101]) {
      const leaves = Array.from({ length: n }, (_, i) => {
        const salt = new Uint8Array(32).fill(i % 251);
        return { salt, leafId: leafIdOf(salt, String(i + 1)), balances: [BigInt(i), 1n, BigInt(i * 7)] };
      });
      const withPadding: TreeBottomInput[] = [...leaves, ...Array.from({ length: n % 5 }, (_, i) => ({ padding: true as const, salt: new Uint8Array(32).fill(i + 1) }))];
      const sliced = await buildLevelsInSlices(assets.length, withPadding);
      const whole = buildLevels(assets.length, withPadding);
      expect(sliced.map((level) => level.map((node) => toHex(node.hash)))).toEqual(whole.map((level) => level.map((node) => toHex(node.hash))));
      expect(sliced[sliced.length - 1][0].sums).toEqual(whole[whole.length - 1][0].sums);
    }
  });
});
