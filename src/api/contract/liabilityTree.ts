// The Merkle sum tree of the proof of liabilities, shared by the server (which builds it) and the
// browser (which verifies a user's path). Pure: no I/O, no clock, no randomness (salts are given).
// The byte layout is documented in ./liabilities.ts; every balance and sum is a bigint of atomic
// units, never a float.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { parseAmount, formatAmount } from './amounts.ts';
import { liabilityTags, type LiabilityProof, type LiabilityRoot } from './liabilities.ts';

/** 2^128: every balance and sum is below it (16 bytes unsigned). */
export const u128Limit = 1n << 128n;

export interface TreeAsset { currency: string; scale: number }
export interface TreeNode { hash: Uint8Array; sums: bigint[] }
export interface TreeLeafInput { salt: Uint8Array; leafId: Uint8Array; balances: bigint[] }
/** A padding leaf: no user behind it, zero balances, only its own random salt. */
export interface TreePaddingInput { padding: true; salt: Uint8Array }
/** What the bottom level is built from: users' leaves and padding leaves, in their shuffled order. */
export type TreeBottomInput = TreeLeafInput | TreePaddingInput;

/**
 * The fewest leaves a publication has: below it even the power-of-two rounding would say a young
 * platform has one, two or three users.
 */
export const paddedLeafCountMin = 16;

const tag = (text: string) => utf8ToBytes(text);

/** 16 bytes, unsigned big-endian; a negative value or one of 2^128 or more is refused. */
export function u128(value: bigint): Uint8Array {
  if (value < 0n || value >= u128Limit) throw new RangeError(`${value} is outside u128`);
  const bytes = new Uint8Array(16);
  let rest = value;
  for (let i = 15; i >= 0; i -= 1) {
    bytes[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return bytes;
}

const sumsBytes = (sums: readonly bigint[]) => concatBytes(...sums.map(u128));

/** leafId = SHA-256("BPOL-USER" ‖ salt ‖ ASCII decimal user id). */
export function leafIdOf(salt: Uint8Array, userId: string): Uint8Array {
  if (salt.length !== 32) throw new RangeError('a salt is 32 bytes');
  if (!/^[0-9]+$/.test(userId)) throw new RangeError('a user id is decimal digits');
  return sha256(concatBytes(tag(liabilityTags.user), salt, utf8ToBytes(userId)));
}

/** A leaf: SHA-256("BPOL-LEAF" ‖ salt ‖ leafId ‖ u128 balances), its sums the balances. */
export function leafNode(leaf: TreeLeafInput): TreeNode {
  if (leaf.salt.length !== 32 || leaf.leafId.length !== 32) throw new RangeError('salt and leafId are 32 bytes');
  return {
    hash: sha256(concatBytes(tag(liabilityTags.leaf), leaf.salt, leaf.leafId, sumsBytes(leaf.balances))),
    sums: [...leaf.balances],
  };
}

/**
 * A padding leaf: SHA-256("BPOL-PADLEAF" ‖ salt), its sums zero. The tag differs from a user's
 * leaf ("BPOL-LEAF" over salt, leafId and balances), so no user can present a padding leaf as
 * their own; the random salt makes it look like any other zero-balance leaf to whoever sees it
 * as a sibling, so a proof does not show where the users end.
 */
export function paddingLeafNode(salt: Uint8Array, assetCount: number): TreeNode {
  if (salt.length !== 32) throw new RangeError('a salt is 32 bytes');
  return { hash: sha256(concatBytes(tag(liabilityTags.paddingLeaf), salt)), sums: new Array<bigint>(assetCount).fill(0n) };
}

/** The node of one bottom input, a user's leaf or a padding leaf. */
export function bottomNode(assetCount: number, input: TreeBottomInput): TreeNode {
  if ('padding' in input) return paddingLeafNode(input.salt, assetCount);
  if (input.balances.length !== assetCount) throw new RangeError('a leaf carries one balance per asset');
  return leafNode(input);
}

/**
 * How many leaves a publication over `userCount` users has: the next power of two at or above it,
 * and at least paddedLeafCountMin. The rest are padding leaves, so the published `leafCount` says
 * only the power of two the number of users falls under, never the number itself.
 */
export function paddedLeafCount(userCount: number): number {
  if (!Number.isSafeInteger(userCount) || userCount < 0) throw new RangeError('a user count is a non-negative integer');
  let size = paddedLeafCountMin;
  while (size < userCount) size *= 2;
  return size;
}

/** The parent of two nodes: its hash covers both children's hashes and sums; its sums add up. */
export function parentNode(left: TreeNode, right: TreeNode): TreeNode {
  if (left.sums.length !== right.sums.length) throw new RangeError('children carry different asset counts');
  const sums = left.sums.map((sum, i) => sum + right.sums[i]);
  for (const sum of sums) u128(sum);
  return {
    hash: sha256(concatBytes(tag(liabilityTags.node), left.hash, sumsBytes(left.sums), right.hash, sumsBytes(right.sums))),
    sums,
  };
}

/** The partner of a level's last node when the level's count is odd: a constant, summing zero. */
export function padNode(assetCount: number): TreeNode {
  return { hash: sha256(tag(liabilityTags.pad)), sums: new Array<bigint>(assetCount).fill(0n) };
}

/** The published root over the assets (code and scale, in order), the top node and its totals. */
export function rootHash(assets: readonly TreeAsset[], top: TreeNode): Uint8Array {
  if (assets.length > 0xffff || top.sums.length !== assets.length) throw new RangeError('asset count');
  const parts: Uint8Array[] = [tag(liabilityTags.root), new Uint8Array([assets.length >> 8, assets.length & 0xff])];
  for (const asset of assets) {
    const code = utf8ToBytes(asset.currency);
    if (code.length > 255 || asset.scale < 0 || asset.scale > 255) throw new RangeError('asset code or scale');
    parts.push(new Uint8Array([code.length]), code, new Uint8Array([asset.scale]));
  }
  parts.push(top.hash, sumsBytes(top.sums));
  return sha256(concatBytes(...parts));
}

/** Every level of the tree, leaves first; the last level holds the top node alone. */
export function buildLevels(assetCount: number, leaves: readonly TreeBottomInput[]): TreeNode[][] {
  const bottom = leaves.map((leaf) => bottomNode(assetCount, leaf));
  const levels: TreeNode[][] = [bottom.length ? bottom : [padNode(assetCount)]];
  while (levels[levels.length - 1].length > 1) {
    const level = levels[levels.length - 1];
    const next: TreeNode[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(parentNode(level[i], level[i + 1] ?? padNode(assetCount)));
    levels.push(next);
  }
  return levels;
}

/** The siblings of the leaf at `index`, bottom up (the pad where a level's last node has none). */
export function pathOf(levels: readonly TreeNode[][], index: number): TreeNode[] {
  const path: TreeNode[] = [];
  let position = index;
  for (let level = 0; level < levels.length - 1; level += 1) {
    const nodes = levels[level];
    const sibling = position % 2 === 0 ? position + 1 : position - 1;
    path.push(nodes[sibling] ?? padNode(nodes[0].sums.length));
    position = Math.floor(position / 2);
  }
  return path;
}

export const toHex = (bytes: Uint8Array) => bytesToHex(bytes);
export const fromHex = (hex: string) => hexToBytes(hex);

/** Why a proof does not verify, in the order the checks run. */
export type ProofFailure =
  | 'shape' // the proof's assets, amounts or index do not fit the publication
  | 'leaf_id' // the leaf id is not the one of this user and salt
  | 'sum' // a sum is negative or too large
  | 'totals' // the path adds up to other totals than the published ones
  | 'root'; // the path does not lead to the published root

export type ProofCheck =
  | { ok: true; balances: bigint[]; totals: bigint[] }
  | { ok: false; failure: ProofFailure };

const hex32 = /^[0-9a-f]{64}$/;

function atomicOf(text: string, scale: number): bigint | null {
  const parsed = parseAmount(text, scale);
  return parsed.ok ? parsed.atomic : null;
}

/**
 * Checks a user's proof against a published root: the leaf id from the user id and salt, the
 * leaf from the balances, each parent up the path (sums non-negative and within u128), the
 * totals, then the root hash. `expectedUserId`, when given, must be the proof's user.
 */
export function verifyLiabilityProof(root: LiabilityRoot, proof: LiabilityProof, expectedUserId?: string): ProofCheck {
  const assets = root.totals.map((total) => ({ currency: total.currency, scale: total.scale }));
  const n = assets.length;
  if (expectedUserId !== undefined && expectedUserId !== proof.userId) return { ok: false, failure: 'leaf_id' };
  if (!hex32.test(root.root) || !hex32.test(proof.salt) || !hex32.test(proof.leafId)) return { ok: false, failure: 'shape' };
  if (proof.balances.length !== n || proof.balances.some((balance, i) => balance.currency !== assets[i].currency)) {
    return { ok: false, failure: 'shape' };
  }
  if (!Number.isSafeInteger(proof.index) || proof.index < 0 || proof.path.length > 52 || proof.index >= 2 ** proof.path.length) {
    return { ok: false, failure: 'shape' };
  }
  const balances = proof.balances.map((balance, i) => atomicOf(balance.amount, assets[i].scale));
  const totals = root.totals.map((total) => atomicOf(total.total, total.scale));
  const steps = proof.path.map((step) => ({
    hash: step.hash,
    sums: step.sums.length === n ? step.sums.map((sum, i) => atomicOf(sum, assets[i].scale)) : null,
  }));
  if (balances.includes(null) || totals.includes(null) || steps.some((step) => !hex32.test(step.hash) || step.sums === null || step.sums.includes(null))) {
    return { ok: false, failure: 'shape' };
  }
  if ([...balances, ...totals, ...steps.flatMap((step) => step.sums)].some((value) => value! >= u128Limit)) {
    return { ok: false, failure: 'sum' };
  }
  try {
    const salt = fromHex(proof.salt);
    if (toHex(leafIdOf(salt, proof.userId)) !== proof.leafId) return { ok: false, failure: 'leaf_id' };
    let node = leafNode({ salt, leafId: fromHex(proof.leafId), balances: balances as bigint[] });
    let position = proof.index;
    for (const step of steps) {
      const sibling: TreeNode = { hash: fromHex(step.hash), sums: step.sums as bigint[] };
      node = position % 2 === 0 ? parentNode(node, sibling) : parentNode(sibling, node);
      position = Math.floor(position / 2);
    }
    if (node.sums.some((sum, i) => sum !== totals[i])) return { ok: false, failure: 'totals' };
    if (toHex(rootHash(assets, node)) !== root.root) return { ok: false, failure: 'root' };
    return { ok: true, balances: balances as bigint[], totals: totals as bigint[] };
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, failure: 'sum' };
    throw error;
  }
}

/** Balances of atomic units as the wire writes them. */
export const amountsOf = (values: readonly bigint[], assets: readonly TreeAsset[]) =>
  values.map((value, i) => formatAmount(value, assets[i].scale));
