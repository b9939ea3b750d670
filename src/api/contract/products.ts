// Investment products on the wire (issue 22): arbitrage and AI quant (a fixed daily rate paid from
// the product's reserve), mining machines (output by a published formula) and bonds (a raise with
// a target and deadline). Amounts are decimal strings in the asset's scale; rates are decimal
// percent strings per day ("0.8" = 0.8 % a day); times are epoch milliseconds. Spec paths where
// the spec names them; field names ours.
import { Type, type Static } from '@sinclair/typebox';
import { ClientOrderId } from './trading.ts';
import { AmountText, CurrencyCode, Page, PageQuery } from './wallet.ts';
import { RecordId } from './withdrawals.ts';

export const productPaths = {
  /** GET ?type=arbitrage|quant|mining|bond&pageNo&pageSize → Page<Product> (public). */
  list: '/prod/appProductInfo/list',
  /** GET ?id → Product (public). */
  detail: '/prod/appProductInfo/queryById',
  /** GET ?type&status&pageNo&pageSize → Page<ProductOrder> (the caller's). */
  myOrders: '/prod/appProductOrder/listMy',
  /** GET ?type → OrderStat. */
  orderStat: '/prod/appProductOrder/orderStat',
  /** POST DebitBuyBody → ProductOrder (arbitrage, quant, bond: principal from spot). */
  debitBuy: '/prod/appProductOrder/debitBuy',
  /** POST MinerBuyBody → ProductOrder (mining: machines rented for the term). */
  minerBuy: '/prod/appProductOrder/minerBuy',
  /** Ours: POST { id } → ProductOrder, where the product allows early redemption. */
  redeem: '/prod/appProductOrder/redeem',
  /** Ours: GET ?id&pageNo&pageSize → Page<AccrualReceipt> (an order's daily receipts). */
  receipts: '/prod/appProductOrder/receipts',
  /** Ours: GET ?asset → MiningPool (totals of the mining pool page). */
  miningPool: '/prod/appProductInfo/miningPool',
} as const;

export const productAdminPaths = {
  /** POST CreateProductBody → Product. GET ?type → Page<AdminProduct>. */
  products: '/admin/products',
  /** POST UpdateProductBody (status, limits, names) → Product. */
  product: '/admin/products/:id',
  /** POST { amount } → ReserveFunding (done at once, or pending a second operator above the threshold). */
  reserve: '/admin/products/:id/reserve',
  /** GET → ReserveFunding[] pending; POST .../:fundingId/approve, .../:fundingId/reject { reason }. */
  fundings: '/admin/products/fundings',
  approveFunding: '/admin/products/fundings/:fundingId/approve',
  rejectFunding: '/admin/products/fundings/:fundingId/reject',
  /** GET ?productId&status&userId → Page<ProductOrder & { userId, account }>. */
  orders: '/admin/products/orders',
  /** POST { reason } freezes a running order (no accrual while frozen); .../unfreeze {}. */
  freeze: '/admin/products/orders/:id/freeze',
  unfreeze: '/admin/products/orders/:id/unfreeze',
  /** GET ?asset → MiningReward[]; POST PublishMiningRewardBody. */
  miningRewards: '/admin/mining/rewards',
  /** POST {} runs a scheduled job now: product-accrual, product-maturity, loan-accrual, vip-levels. → JobRun */
  runJob: '/admin/jobs/:name/run',
  /** GET → JobRun[] (newest first). */
  jobRuns: '/admin/jobs/runs',
} as const;

export const productTypes = ['arbitrage', 'quant', 'mining', 'bond'] as const;
export const ProductType = Type.Union(productTypes.map((type) => Type.Literal(type)));
export type ProductType = Static<typeof ProductType>;
/** draft (not shown), open (on sale), closed (no longer sold), raised (bond target met), failed (bond refunded). */
export const ProductStatus = Type.Union(['draft', 'open', 'closed', 'raised', 'failed'].map((status) => Type.Literal(status)));
export const orderStatuses = ['not_started', 'running', 'ended', 'frozen', 'cancelled'] as const;
export const OrderStatus = Type.Union(orderStatuses.map((status) => Type.Literal(status)));
export type OrderStatus = Static<typeof OrderStatus>;

/** A percentage per day as a decimal string with up to 4 decimals ("1.5", "0.0500"). */
export const RateText = Type.String({ minLength: 1, maxLength: 12, pattern: '^[0-9]{1,3}(\\.[0-9]{1,4})?$' });
/** ppm of principal per day → percent string and back: 15000 ppm = "1.5" %. */
export const ratePercentFromPpm = (ppm: number) => (ppm / 10_000).toFixed(4).replace(/\.?0+$/, '') || '0';

export const MachineSpec = Type.Object({
  manufacturer: Type.String({ maxLength: 80 }),
  /** Terahashes per second, decimal string. */
  hashrateThs: Type.String({ maxLength: 20 }),
  powerW: Type.Integer({ minimum: 0, maximum: 100_000 }),
  size: Type.String({ maxLength: 60 }),
  weightKg: Type.String({ maxLength: 20 }),
  temperature: Type.String({ maxLength: 40 }),
  humidity: Type.String({ maxLength: 40 }),
  network: Type.String({ maxLength: 40 }),
});
export type MachineSpec = Static<typeof MachineSpec>;

export const Product = Type.Object({
  id: Type.String(),
  type: ProductType,
  /** In the caller's language (Accept-Language / lang), falling back to English. */
  name: Type.String(),
  asset: Type.String(),
  payoutAsset: Type.String(),
  status: ProductStatus,
  days: Type.Integer(),
  /** Percent per day ("0.8"); the bond's coupon per day; "0" for mining. */
  dailyRate: Type.String(),
  firstDayRule: Type.Union([Type.Literal('full'), Type.Literal('next_day')]),
  /** VIP level needed to buy. */
  minLevel: Type.Integer(),
  minAmount: Type.String(),
  maxAmount: Type.String(),
  perUserMax: Type.String(),
  totalCap: Type.String(),
  /** Sold so far (principal held, or raised for a bond). */
  sold: Type.String(),
  earlyRedeem: Type.Boolean(),
  /** Percent of principal charged on early redemption ("1"). */
  earlyRedeemFee: Type.String(),
  /** Coverage of what is owed by reserve and principal held, percent with 2 decimals ("135.20"); "∞" when nothing is owed. */
  coverage: Type.String(),
  reserve: Type.String(),
  owed: Type.String(),
  /** Where the return comes from, one sentence key: 'reserve_fixed_rate' | 'mining_formula' | 'bond_coupon'. */
  returnSource: Type.String(),
  target: Type.Optional(Type.String()),
  opensAt: Type.Optional(Type.Integer()),
  closesAt: Type.Optional(Type.Integer()),
  machine: Type.Optional(MachineSpec),
  unitPrice: Type.Optional(Type.String()),
  /** Mining: the reward figure in force (per TH/s per day, in payoutAsset), its day and source. */
  miningReward: Type.Optional(Type.Object({
    rewardPerThsDay: Type.String(), electricityPerKwh: Type.String(), day: Type.String(), source: Type.String(),
    /** Estimated net output per machine per day at the reward figure and the last price. */
    estimatedDailyOutput: Type.String(),
  })),
});
export type Product = Static<typeof Product>;

export const ProductListQuery = Type.Object({ type: Type.Optional(ProductType), ...PageQuery }, { additionalProperties: false });
export const ProductIdQuery = Type.Object({ id: RecordId }, { additionalProperties: false });

export const DebitBuyBody = Type.Object({
  productId: RecordId,
  amount: AmountText,
  clientOrderId: ClientOrderId,
}, { additionalProperties: false });
export type DebitBuyBody = Static<typeof DebitBuyBody>;

export const MinerBuyBody = Type.Object({
  productId: RecordId,
  quantity: Type.Integer({ minimum: 1, maximum: 1000 }),
  clientOrderId: ClientOrderId,
}, { additionalProperties: false });
export type MinerBuyBody = Static<typeof MinerBuyBody>;

export const RedeemBody = Type.Object({ id: RecordId }, { additionalProperties: false });

export const ProductOrder = Type.Object({
  id: Type.String(),
  productId: Type.String(),
  productType: ProductType,
  productName: Type.String(),
  clientOrderId: Type.String(),
  asset: Type.String(),
  payoutAsset: Type.String(),
  amount: Type.String(),
  quantity: Type.Integer(),
  status: OrderStatus,
  dailyRate: Type.String(),
  days: Type.Integer(),
  startsAt: Type.Integer(),
  endsAt: Type.Integer(),
  /** Returns paid so far, and today's (the receipt of the current UTC day, "0" if none yet). */
  accumulatedIncome: Type.String(),
  todayIncome: Type.String(),
  /** Still to be paid of what was promised. */
  owed: Type.String(),
  /** Whole days left until endsAt (0 once ended). */
  remainingDays: Type.Integer(),
  frozenReason: Type.Optional(Type.String()),
  endedAt: Type.Optional(Type.Integer()),
  createdAt: Type.Integer(),
});
export type ProductOrder = Static<typeof ProductOrder>;

export const MyOrdersQuery = Type.Object({
  type: Type.Optional(ProductType), status: Type.Optional(OrderStatus), ...PageQuery,
}, { additionalProperties: false });

/** orderStat: the caller's totals, per payout asset. */
export const OrderStat = Type.Object({
  /** Orders running now. */
  running: Type.Integer(),
  ended: Type.Integer(),
  totals: Type.Array(Type.Object({
    asset: Type.String(),
    /** Principal held in running orders ("hosted amount"). */
    hosted: Type.String(),
    todayIncome: Type.String(),
    accumulatedIncome: Type.String(),
  })),
});
export type OrderStat = Static<typeof OrderStat>;

export const AccrualReceipt = Type.Object({
  orderId: Type.String(),
  day: Type.String(),
  amount: Type.String(),
  asset: Type.String(),
  /** The inputs, so the user can recompute it: principal, ratePpm, days... or hashrateThs, rewardPerThsDay, powerW, electricityPerKwh, price, tickTime. */
  inputs: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
  transferId: Type.String(),
});
export type AccrualReceipt = Static<typeof AccrualReceipt>;

export const MiningPool = Type.Object({
  asset: Type.String(),
  machinesRunning: Type.Integer(),
  hashrateThs: Type.String(),
  outputToday: Type.String(),
  outputTotal: Type.String(),
  /** The caller's, when logged in. */
  my: Type.Optional(Type.Object({ machines: Type.Integer(), hashrateThs: Type.String(), outputTotal: Type.String() })),
});

// ─── Back office ────────────────────────────────────────────────────────────────────────────────

export const CreateProductBody = Type.Object({
  type: ProductType,
  name: Type.String({ minLength: 1, maxLength: 80 }),
  names: Type.Optional(Type.Record(Type.String({ maxLength: 8 }), Type.String({ minLength: 1, maxLength: 80 }))),
  asset: CurrencyCode,
  /** Mining: the mined asset; otherwise `asset` (the default). */
  payoutAsset: Type.Optional(CurrencyCode),
  days: Type.Integer({ minimum: 1, maximum: 3650 }),
  dailyRate: Type.Optional(RateText),
  firstDayRule: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('next_day')])),
  minLevel: Type.Optional(Type.Integer({ minimum: 0, maximum: 20 })),
  minAmount: AmountText,
  maxAmount: AmountText,
  perUserMax: Type.Optional(AmountText),
  totalCap: Type.Optional(AmountText),
  earlyRedeem: Type.Optional(Type.Boolean()),
  earlyRedeemFee: Type.Optional(RateText),
  /** Bond: raise target and deadline. */
  target: Type.Optional(AmountText),
  opensAt: Type.Optional(Type.Integer({ minimum: 0 })),
  closesAt: Type.Optional(Type.Integer({ minimum: 0 })),
  machine: Type.Optional(MachineSpec),
  unitPrice: Type.Optional(AmountText),
  /** Default 'open'. */
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('open')])),
}, { additionalProperties: false });
export type CreateProductBody = Static<typeof CreateProductBody>;

export const UpdateProductBody = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('open'), Type.Literal('closed')])),
  names: Type.Optional(Type.Record(Type.String({ maxLength: 8 }), Type.String({ minLength: 1, maxLength: 80 }))),
  minLevel: Type.Optional(Type.Integer({ minimum: 0, maximum: 20 })),
  maxAmount: Type.Optional(AmountText),
  perUserMax: Type.Optional(AmountText),
  totalCap: Type.Optional(AmountText),
}, { additionalProperties: false });

export const ReserveBody = Type.Object({ amount: AmountText }, { additionalProperties: false });
export const ReasonBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 300 }) }, { additionalProperties: false });

/**
 * Where an operator's funding stands (product reserves here, reward pools in rewards.ts): done at
 * once up to the currency's threshold, else pending until a second, different operator approves.
 */
export const fundingDecision = {
  status: Type.Union([Type.Literal('pending'), Type.Literal('done'), Type.Literal('rejected')]),
  approvalsRequired: Type.Integer(),
  approvals: Type.Array(Type.Object({ operatorId: Type.String(), time: Type.Integer() })),
  requestedBy: Type.String(),
  createdAt: Type.Integer(),
  completedAt: Type.Optional(Type.Integer()),
};

export const ReserveFunding = Type.Object({
  id: Type.String(),
  productId: Type.String(),
  asset: Type.String(),
  amount: Type.String(),
  ...fundingDecision,
});
export type ReserveFunding = Static<typeof ReserveFunding>;

export const PublishMiningRewardBody = Type.Object({
  asset: CurrencyCode,
  /** YYYY-MM-DD (UTC) from which the figure applies. */
  day: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }),
  /** Mined asset per TH/s per day, decimal in the asset's scale. */
  rewardPerThsDay: AmountText,
  /** USDT per kWh. */
  electricityPerKwh: AmountText,
  source: Type.String({ minLength: 3, maxLength: 200 }),
}, { additionalProperties: false });

export const MiningReward = Type.Object({
  id: Type.String(), asset: Type.String(), day: Type.String(), rewardPerThsDay: Type.String(),
  electricityPerKwh: Type.String(), source: Type.String(), createdAt: Type.Integer(),
});

export const jobNames = ['product-accrual', 'product-maturity', 'loan-accrual', 'vip-levels',
  // Issue 23: prizes of ended competitions, the weekly red envelopes, the daily team income.
  'competition-settle', 'red-envelopes', 'team-commission'] as const;
export const JobName = Type.Union(jobNames.map((name) => Type.Literal(name)));
export type JobName = Static<typeof JobName>;
export const JobRun = Type.Object({
  name: JobName,
  /** The UTC day it ran for; a second run the same day answers this run (replayed true). */
  day: Type.String(),
  state: Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
  replayed: Type.Boolean(),
  /** What it did: counts and totals ("orders": 12, "paid": "3.200000"...). */
  result: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
  operatorId: Type.Optional(Type.String()),
  startedAt: Type.Integer(),
  finishedAt: Type.Optional(Type.Integer()),
});
export type JobRun = Static<typeof JobRun>;

export { productErrorCodes } from './investErrors.ts';
export { Page };
