// Proof of liabilities (issue 9): the engine instance publishes, daily and on an operator's request,
// the root of a Merkle sum tree over every user's real balances per asset. A user fetches their
// leaf and the path to the root and verifies it themselves (src/api/contract/liabilityTree.ts does
// it in the browser; test/conformance/liabilities.test.ts re-implements it from this comment alone).
//
// What is counted: a user's spot, frozen, position-margin and product-holding accounts, per asset —
// what the platform owes the user. Loan accounts are not counted (a loan is what the user owes the
// platform, not a liability of the platform), nor is anything demo.
//
// Hash: SHA-256. Integers: every balance and sum is a count of the asset's atomic units
// (amount × 10^scale), written as 16 bytes unsigned big-endian (u128). A sum above 2^128 - 1 is
// invalid, and there is no sign bit: a negative balance cannot be written, so it can never offset
// another user's balance inside a sum. The assets of a publication are in the order of its
// `totals` (ascending currency code); every leaf and node carries one value per asset, zero where a
// user holds none. ASCII tags separate the kinds of hash from each other.
//
//   leafId  = SHA-256( "BPOL-USER" ‖ salt[32] ‖ ASCII decimal user id )
//   leaf    = SHA-256( "BPOL-LEAF" ‖ salt[32] ‖ leafId[32] ‖ u128(balance₁) ‖ … ‖ u128(balanceₙ) )
//   node    = SHA-256( "BPOL-NODE" ‖ left[32] ‖ u128(leftSum₁) … u128(leftSumₙ)
//                                  ‖ right[32] ‖ u128(rightSum₁) … u128(rightSumₙ) )
//             with the node's sums = left sums + right sums, asset by asset;
//   padding = SHA-256( "BPOL-PADLEAF" ‖ salt[32] ), sums all zero: a padding leaf. The bottom level
//             holds the users' leaves and as many padding leaves as bring the count to the next
//             power of two (at least 16), shuffled together, so the published leafCount is that
//             power of two and not the number of users. Its own tag keeps anyone from passing a
//             padding leaf off as a user's leaf; its random salt makes it look, as a sibling, like
//             any user's leaf with zero balances;
//   pad     = SHA-256( "BPOL-PAD" ), sums all zero: the partner of the last node of a level that
//             has an odd count (so a lone node never passes up unhashed; with the power-of-two
//             bottom level it no longer occurs, but publications made before padding have it);
//             levels are built until one node is left, the top node;
//   root    = SHA-256( "BPOL-ROOT" ‖ u16(n) ‖ for each asset: u8(len) ‖ ASCII code ‖ u8(scale)
//                      ‖ topNode[32] ‖ u128(total₁) … u128(totalₙ) )
//
// The salt is 32 random bytes per user per publication, so a leaf hash reveals nothing and the
// same balances never hash alike twice. The leafId binds the leaf to one user id (two users cannot
// be handed the same leaf). Leaves are shuffled at random for each publication. A path lists the
// siblings from the leaf up; the leaf's `index` says the side at each level: bit k of the index is
// 0 when the running node is the left child at level k (the sibling is then on the right).
// Verification recomputes leafId, the leaf, each node up the path (every sum u128, non-negative),
// the root from the top node and the published totals, and compares it with the published root.
// What a proof reveals besides the user's own leaf: sibling hashes and sums only — no other user's
// id, salt or leaf id. The first sibling's sums are those of one anonymous, reshuffled leaf.
//
// On the wire: hashes and salts are 64 lowercase hex digits; amounts are decimal strings with
// exactly the asset's scale (atomic units = the digits without the point); times are ms since the
// epoch.
import { Type, type Static } from '@sinclair/typebox';

/** User calls, relative to /api. */
export const liabilityPaths = {
  /** The logged-in user's leaf and path in the latest publication. */
  proof: '/finance/appWallet/liabilityProof',
  /** Published roots, newest first (paged). */
  roots: '/finance/appWallet/liabilityRoots',
} as const;

/** Operator calls, under /api (the admin prefix is part of the path). */
export const liabilityAdminPaths = {
  /** Published roots, newest first (paged): finance and admin operators. */
  list: '/admin/liabilities',
  /** Publish a new root now: body `{}`, answer the new LiabilityRoot. Finance and admin, audited. */
  publish: '/admin/liabilities/publish',
} as const;

/** The hash tags, as ASCII. */
export const liabilityTags = {
  user: 'BPOL-USER',
  leaf: 'BPOL-LEAF',
  node: 'BPOL-NODE',
  pad: 'BPOL-PAD',
  paddingLeaf: 'BPOL-PADLEAF',
  root: 'BPOL-ROOT',
} as const;

export const Hex32 = Type.String({ minLength: 64, maxLength: 64, pattern: '^[0-9a-f]{64}$' });

export const LiabilityTotal = Type.Object({
  currency: Type.String(),
  /** Decimal places of the asset: totals and balances have exactly this many. */
  scale: Type.Integer({ minimum: 0, maximum: 18 }),
  /** The sum of every user's balance of the asset, a decimal string. */
  total: Type.String(),
});
export type LiabilityTotal = Static<typeof LiabilityTotal>;

export const liabilityTriggers = ['daily', 'operator'] as const;
export type LiabilityTrigger = (typeof liabilityTriggers)[number];

/** One published root. */
export const LiabilityRoot = Type.Object({
  /** Decimal string of the publication's id. */
  id: Type.String(),
  /** When the balances were read, ms since the epoch. */
  time: Type.Integer(),
  /** The published root hash (the "root" formula above). */
  root: Hex32,
  /**
   * Leaves in the tree, padding leaves included: the number of users rounded up to a power of two
   * (at least 16), so a publication does not reveal how many users the platform has.
   */
  leafCount: Type.Integer({ minimum: 0 }),
  /** Per asset, ascending currency code: the order of the values in every leaf and node. */
  totals: Type.Array(LiabilityTotal),
  /** What started it: the daily timer or an operator. */
  trigger: Type.Union(liabilityTriggers.map((trigger) => Type.Literal(trigger))),
});
export type LiabilityRoot = Static<typeof LiabilityRoot>;

export const LiabilityBalance = Type.Object({
  currency: Type.String(),
  /** Decimal string with the asset's scale. */
  amount: Type.String(),
});
export type LiabilityBalance = Static<typeof LiabilityBalance>;

/** A sibling on the path: its hash and its sums (decimal strings, in the assets' order). */
export const LiabilityPathStep = Type.Object({
  hash: Hex32,
  sums: Type.Array(Type.String()),
});
export type LiabilityPathStep = Static<typeof LiabilityPathStep>;

export const LiabilityProof = Type.Object({
  /** The user's id as the leafId formula reads it (decimal ASCII). */
  userId: Type.String(),
  /** Position of the leaf at the bottom level (0-based): its bits give the sides up the path. */
  index: Type.Integer({ minimum: 0 }),
  salt: Hex32,
  leafId: Hex32,
  /** The user's balances in the tree, one per asset of the publication, in its order. */
  balances: Type.Array(LiabilityBalance),
  /** Siblings from the leaf's level up to just below the top node. */
  path: Type.Array(LiabilityPathStep),
});
export type LiabilityProof = Static<typeof LiabilityProof>;

/**
 * Issue 22: each investment product's coverage, read live (not part of the tree): `reserve` what
 * operators funded for its returns and not yet paid out, `owed` the returns promised and not yet
 * paid, `principal` what buyers hold in it; amounts in `asset` (the payout asset) with its scale.
 * coverage = (reserve + principal) ÷ (principal + owed), a percent with 2 decimals rounded down
 * ("135.20"), "∞" when nothing is owed and no principal is held.
 */
export const ProductCoverage = Type.Object({
  id: Type.String(),
  name: Type.String(),
  asset: Type.String(),
  reserve: Type.String(),
  owed: Type.String(),
  principal: Type.String(),
  coverage: Type.String(),
});
export type ProductCoverage = Static<typeof ProductCoverage>;

/** Why a user has no leaf in the latest publication, as the server explains it. */
export const liabilityAbsenceReasons = ['account_newer', 'guest'] as const;
export type LiabilityAbsenceReason = (typeof liabilityAbsenceReasons)[number];

/**
 * `GET /finance/appWallet/liabilityProof`: `root` is null while nothing has been published;
 * `proof` is null when the user is not in the latest publication, and then `absence` says why
 * when the server knows: 'account_newer' (opened after it), 'guest' (a guest holding no real
 * money is not counted); null otherwise (which the asset centre shows as a warning).
 */
export const LiabilityProofResult = Type.Object({
  root: Type.Union([LiabilityRoot, Type.Null()]),
  proof: Type.Union([LiabilityProof, Type.Null()]),
  absence: Type.Optional(Type.Union([Type.Union(liabilityAbsenceReasons.map((reason) => Type.Literal(reason))), Type.Null()])),
  /** Every product on offer or with holders (not drafts), with its coverage now (issue 22); absent when there is none. */
  productCoverage: Type.Optional(Type.Array(ProductCoverage)),
});
export type LiabilityProofResult = Static<typeof LiabilityProofResult>;

export const LiabilityRootsQuery = Type.Object({
  pageNo: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
}, { additionalProperties: false });
export type LiabilityRootsQuery = Static<typeof LiabilityRootsQuery>;

/** Paged roots, newest first: `{records, total, size, current, pages}`. */
export const LiabilityRootPage = Type.Object({
  records: Type.Array(LiabilityRoot),
  total: Type.Integer(),
  size: Type.Integer(),
  current: Type.Integer(),
  pages: Type.Integer(),
  /** Every product on offer or with holders (not drafts), with its coverage now (issue 22); absent when there is none. */
  productCoverage: Type.Optional(Type.Array(ProductCoverage)),
});
export type LiabilityRootPage = Static<typeof LiabilityRootPage>;

export const LiabilityPublishBody = Type.Object({}, { additionalProperties: false });
export type LiabilityPublishBody = Static<typeof LiabilityPublishBody>;
