// IEO token offerings on the wire (issue 23): projects with a provable lottery (docs/fairness.md),
// applications (subscription records), payment by the winners and the published draw. Amounts are
// decimal strings in their asset's scale; lots are whole numbers; times are epoch milliseconds.
// Spec paths where the spec names them (§7); spec §3 field names: name, estimatedPrice,
// winningPrice, quantity (subscription quantity), amount. Other field names ours.
import { Type, type Static } from '@sinclair/typebox';
import { AmountText, CurrencyCode, PageQuery } from './wallet.ts';
import { RecordId } from './withdrawals.ts';

export const ieoPaths = {
  /** GET ?pageNo&pageSize → Page<IeoProject> (public; `my` when a session token is sent). */
  list: '/prod/appProdIoe/list',
  /** GET ?pageNo&pageSize → Page<IeoProject> (the projects the caller applied to, with `my`). */
  listMy: '/prod/appProdIoe/listMy',
  /** GET ?id → IeoDraw (public): commitment, list and its hash once closed, seed and winners once revealed. */
  draw: '/prod/appProdIoe/draw',
  /** GET ?status&pageNo&pageSize → Page<IeoApplication> (the caller's subscription records and lottery results). */
  myApplications: '/prod/appOrderIoe/listMy',
  /**
   * POST { id, lots } → IeoApplication. Needs basic verification (verification_required); one
   * application per verified person (ieo_person_applied_already); holds the cost of the lots at once
   * (balance_insufficient when spot does not cover it), paid for the lots won at the draw.
   */
  apply: '/prod/appOrderIoe/apply',
  /** POST { id } (the project id) → IeoApplication: the won lots paid from spot (an application without a hold; a held one is paid at the draw). */
  pay: '/prod/appOrderIoe/pay',
} as const;

export const ieoAdminPaths = {
  /** POST CreateIeoBody → AdminIeoProject. GET ?pageNo&pageSize → Page<AdminIeoProject>. */
  projects: '/admin/ieo',
  /** GET → AdminIeoProject. */
  project: '/admin/ieo/:id',
  /** POST {} after closesAt: the application list fixed and published with its hash. */
  close: '/admin/ieo/:id/close',
  /** POST {}: the seed published, checked against seedHash, and the winners drawn. */
  reveal: '/admin/ieo/:id/reveal',
  /** POST {} at or after listsAt: unpaid winners lapse, paid winners are credited their tokens. */
  list: '/admin/ieo/:id/list',
} as const;

/** upcoming (window not open), issuing (window open), closed (list published), drawn (seed revealed, paying), listed, cancelled. */
export const ieoProjectStatuses = ['upcoming', 'issuing', 'closed', 'drawn', 'listed', 'cancelled'] as const;
export const IeoProjectStatus = Type.Union(ieoProjectStatuses.map((status) => Type.Literal(status)));
export type IeoProjectStatus = Static<typeof IeoProjectStatus>;
/**
 * Spec §4: applied, won, lost, paid, lapsed (won and not paid by the deadline), completed (tokens
 * credited at listing). Since issue 38 an application's held cost pays its won lots at the draw
 * (won → paid at once); won and lapsed remain for applications made before holds.
 */
export const ieoApplicationStatuses = ['applied', 'won', 'lost', 'paid', 'lapsed', 'completed'] as const;
export const IeoApplicationStatus = Type.Union(ieoApplicationStatuses.map((status) => Type.Literal(status)));
export type IeoApplicationStatus = Static<typeof IeoApplicationStatus>;

export const IeoApplication = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  /** The project's name. */
  name: Type.String(),
  token: Type.String(),
  payAsset: Type.String(),
  /** Lots applied for, and the tokens they are (subscription quantity). */
  lots: Type.Integer(),
  quantity: Type.String(),
  wonLots: Type.Integer(),
  /** Tokens won. */
  wonQuantity: Type.String(),
  /** What the won lots cost (pay asset): wonLots × lotSize × price. "0" before the draw. */
  amount: Type.String(),
  /** What all the lots applied for would cost. */
  appliedAmount: Type.String(),
  /**
   * Issue 38: what is held from the spot balance for this application now (pay asset): the cost of
   * every lot applied for until the draw, then "0" (the won lots paid from it, the rest released).
   * Absent on an application made before applying held its cost.
   */
  heldAmount: Type.Optional(Type.String()),
  estimatedPrice: Type.String(),
  winningPrice: Type.Optional(Type.String()),
  status: IeoApplicationStatus,
  payDeadline: Type.Integer(),
  createdAt: Type.Integer(),
  paidAt: Type.Optional(Type.Integer()),
});
export type IeoApplication = Static<typeof IeoApplication>;

export const IeoProject = Type.Object({
  id: Type.String(),
  /** In the caller's language, falling back to the English name. */
  name: Type.String(),
  token: Type.String(),
  tokenScale: Type.Integer(),
  payAsset: Type.String(),
  /** Price of one token in payAsset; the winning price is the same fixed price, shown once drawn. */
  estimatedPrice: Type.String(),
  winningPrice: Type.Optional(Type.String()),
  /** Tokens in one lot, and what one lot costs in payAsset. */
  lotSize: Type.String(),
  lotAmount: Type.String(),
  supplyLots: Type.Integer(),
  perUserMaxLots: Type.Integer(),
  opensAt: Type.Integer(),
  closesAt: Type.Integer(),
  payDeadline: Type.Integer(),
  listsAt: Type.Integer(),
  status: IeoProjectStatus,
  /** Applications and lots applied for so far. */
  applicants: Type.Integer(),
  appliedLots: Type.Integer(),
  /** The commitment: SHA-256 of the secret seed (hex), public from creation. */
  seedHash: Type.String(),
  listHash: Type.Optional(Type.String()),
  seedRevealed: Type.Boolean(),
  /** The caller's application (when a session token was sent). */
  my: Type.Optional(IeoApplication),
});
export type IeoProject = Static<typeof IeoProject>;

export const IeoWinner = Type.Object({ id: Type.String(), lots: Type.Integer(), won: Type.Integer() });

/** The published draw (docs/fairness.md). */
export const IeoDraw = Type.Object({
  id: Type.String(),
  status: IeoProjectStatus,
  supplyLots: Type.Integer(),
  seedHash: Type.String(),
  /** Present once revealed (64 hex digits). */
  seed: Type.Optional(Type.String()),
  /** The canonical application list ("<applicationId>:<lots>\n" by id) and its SHA-256, once closed. */
  list: Type.Optional(Type.String()),
  listHash: Type.Optional(Type.String()),
  applications: Type.Optional(Type.Integer()),
  totalLots: Type.Optional(Type.Integer()),
  /** Every application with at least one winning lot, in list order, once revealed. */
  winners: Type.Optional(Type.Array(IeoWinner)),
  closedAt: Type.Optional(Type.Integer()),
  revealedAt: Type.Optional(Type.Integer()),
  /** Where the algorithm is written down. */
  algorithm: Type.String(),
});
export type IeoDraw = Static<typeof IeoDraw>;

export const IeoListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const IeoIdQuery = Type.Object({ id: RecordId }, { additionalProperties: false });
export const IeoApplicationsQuery = Type.Object({ status: Type.Optional(IeoApplicationStatus), ...PageQuery }, { additionalProperties: false });

export const IeoApplyBody = Type.Object({
  id: RecordId,
  lots: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
}, { additionalProperties: false });
export type IeoApplyBody = Static<typeof IeoApplyBody>;
export const IeoPayBody = Type.Object({ id: RecordId }, { additionalProperties: false });

// ─── Back office ────────────────────────────────────────────────────────────────────────────────

export const CreateIeoBody = Type.Object({
  /** The new token's code (a new ledger asset), its name and decimals. */
  token: CurrencyCode,
  tokenName: Type.String({ minLength: 1, maxLength: 64 }),
  tokenScale: Type.Integer({ minimum: 0, maximum: 18 }),
  name: Type.String({ minLength: 1, maxLength: 80 }),
  names: Type.Optional(Type.Record(Type.String({ maxLength: 8 }), Type.String({ minLength: 1, maxLength: 80 }))),
  payAsset: CurrencyCode,
  /** Price of one token in payAsset (decimal). */
  price: AmountText,
  /** Tokens in one lot (decimal in the token's scale). lotSize × price must be exact in payAsset's scale. */
  lotSize: AmountText,
  supplyLots: Type.Integer({ minimum: 1, maximum: 100_000_000 }),
  perUserMaxLots: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  opensAt: Type.Integer({ minimum: 0 }),
  closesAt: Type.Integer({ minimum: 0 }),
  payDeadline: Type.Integer({ minimum: 0 }),
  listsAt: Type.Integer({ minimum: 0 }),
}, { additionalProperties: false });
export type CreateIeoBody = Static<typeof CreateIeoBody>;

export const AdminIeoProject = Type.Intersect([IeoProject, Type.Object({
  names: Type.Record(Type.String(), Type.String()),
  wonLots: Type.Integer(),
  paidLots: Type.Integer(),
  lapsedLots: Type.Integer(),
  /** Payments received (payAsset) in ieo_proceeds. */
  proceeds: Type.String(),
  /** Issue 38: what applications hold now (payAsset), until the draw settles them. */
  held: Type.Optional(Type.String()),
  closedAt: Type.Optional(Type.Integer()),
  revealedAt: Type.Optional(Type.Integer()),
  listedAt: Type.Optional(Type.Integer()),
  /** The allocation payout job once listed: targets and progress. */
  allocation: Type.Optional(Type.Object({ jobId: Type.String(), state: Type.String(), targets: Type.Integer(), posted: Type.Integer(), refused: Type.Integer() })),
  createdAt: Type.Integer(),
})]);
export type AdminIeoProject = Static<typeof AdminIeoProject>;

export const ieoAlgorithm = 'docs/fairness.md: Fisher–Yates over lot tickets driven by HMAC-SHA256(seed, listHash ‖ counter), v1';

export { CurrencyCode };
