// The wallet: currencies and their networks, balances and assets, the account ledger, uploads and
// deposits (issue 9). Amounts are decimal strings of the currency's scale on the wire, never
// numbers; times are milliseconds since the epoch. Withdrawals have their own contract file.
import { Type, type Static } from '@sinclair/typebox';

export const walletPaths = {
  currencyList: '/set/appCurrencySet/getCurrencyList',
  rateByCurrency: '/set/appCurrencySet/getRateByCurrency',
  userBalance: '/finance/appWallet/queryUserBalance',
  userAssets: '/finance/appWallet/queryUserAssets',
  balanceLog: '/finance/appBalanceLog/list',
  /**
   * Ours (issue 19): the same ledger, one record per business event (a withdrawal, a contract, a
   * deposit) instead of one per raw entry; the query is balanceLog's. Not in the spec.
   */
  balanceEvents: '/finance/appBalanceLog/events',
  depositAddress: '/finance/rechargeAddr/getAddr',
  upload: '/sys/common/upload',
  /** The bytes of an upload, to its owner only (operators read them under /api/admin). */
  uploadedFile: '/sys/common/file/:id',
  rechargeApply: '/finance/appRecharge/apply',
  rechargeListMy: '/finance/appRecharge/listMy',
} as const;

/** Operator calls, under /api (the admin prefix is part of the path). */
export const walletAdminPaths = {
  recharges: '/admin/recharges',
  rechargeApprove: '/admin/recharges/:id/approve',
  rechargeReject: '/admin/recharges/:id/reject',
  /** A user's upload, for the operator reviewing it. */
  uploadedFile: '/admin/files/:id',
  /** What an operator reviewing a user's deposit or withdrawal reads beside it (AdminReviewContext). */
  reviewContext: '/admin/users/:id/reviewContext',
  currencies: '/admin/settings/currencies',
  currency: '/admin/settings/currencies/:code',
  network: '/admin/settings/currencies/:code/networks/:network',
} as const;

export const uploadUrl = (id: string) => `/api/sys/common/file/${id}`;

/** A currency code as the ledger names it ("USDT"). */
export const CurrencyCode = Type.String({ minLength: 2, maxLength: 12, pattern: '^[A-Z0-9]{2,12}$' });
/** A network as the wallet names it ("TRC20", "ERC20", "BTC"). */
export const NetworkCode = Type.String({ minLength: 2, maxLength: 16, pattern: '^[A-Z0-9]{2,16}$' });
/**
 * An amount as typed, checked by the server against the currency's scale (no sign, no exponent,
 * no more decimals than the currency has); the schema only bounds its length.
 */
export const AmountText = Type.String({ maxLength: 80 });
/** A decimal string the server wrote ("12.500000"), with every decimal of the currency's scale. */
export const Amount = Type.String();
/** The id of an upload: 32 hex digits. */
export const UploadId = Type.String({ minLength: 32, maxLength: 32, pattern: '^[0-9a-f]{32}$' });

/** Record statuses of spec §4: 1 delivered, 0 under review, -1 rejected, 2 paid out, -2 failed. */
export const recordStatus = { delivered: 1, underReview: 0, rejected: -1, paidOut: 2, failed: -2 } as const;
export const RechargeStatus = Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(-1)]);

export const PageQuery = {
  pageNo: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};
export const Page = <T extends import('@sinclair/typebox').TSchema>(record: T) => Type.Object({
  records: Type.Array(record), total: Type.Integer(), size: Type.Integer(), current: Type.Integer(), pages: Type.Integer(),
});
export interface PageOf<T> { records: T[]; total: number; size: number; current: number; pages: number }

export const CurrencyNetwork = Type.Object({
  network: Type.String(),
  depositEnabled: Type.Boolean(),
  withdrawalEnabled: Type.Boolean(),
  depositMin: Amount,
  withdrawalMin: Amount,
  withdrawalFee: Amount,
});
export type CurrencyNetwork = Static<typeof CurrencyNetwork>;

export const CurrencyInfo = Type.Object({
  currency: Type.String(),
  name: Type.String(),
  /** Decimal places of one unit: amounts have exactly this many. */
  scale: Type.Integer(),
  networks: Type.Array(CurrencyNetwork),
});
export type CurrencyInfo = Static<typeof CurrencyInfo>;

export const RateQuery = Type.Object({ currency: CurrencyCode }, { additionalProperties: false });
export const CurrencyRate = Type.Object({
  currency: Type.String(),
  /** USDT per one unit of the currency, a decimal string. */
  rate: Type.String(),
  /** feed: the market's last price; operator: a rate an operator set; par: USDT itself. */
  source: Type.Union([Type.Literal('feed'), Type.Literal('operator'), Type.Literal('par')]),
  /** When the price was quoted or the rate set (ms). */
  time: Type.Integer(),
});
export type CurrencyRate = Static<typeof CurrencyRate>;

export const CurrencyBalance = Type.Object({
  currency: Type.String(),
  scale: Type.Integer(),
  /** Free to use: the spot balance less what pending transfers reserve. */
  available: Amount,
  /** Held back: withdrawals under review and other frozen funds. */
  frozen: Amount,
});
export type CurrencyBalance = Static<typeof CurrencyBalance>;

export const assetKinds = ['spot', 'frozen', 'position', 'product', 'loan', 'demo'] as const;
export type AssetKind = (typeof assetKinds)[number];
const KindAmounts = Type.Object({
  spot: Amount, frozen: Amount, position: Amount, product: Amount, loan: Amount, demo: Amount,
  /** Ours (issue 22): what pledge loans hold as collateral; the server always sends it, a reader may ignore it. */
  collateral: Type.Optional(Amount),
  /** Ours (issue 23): spec §3 "assets frozen by competition", the competition account's entry funds and results. */
  competition: Type.Optional(Amount),
});

export const CurrencyAssets = Type.Object({
  currency: Type.String(),
  scale: Type.Integer(),
  /** Per kind in the currency itself; loan is what is owed (negative or zero). */
  amounts: KindAmounts,
  /** USDT per unit used, or null when neither the feed nor an operator gives one. */
  rate: Type.Union([Type.String(), Type.Null()]),
  /** The real kinds (not demo) added up in USDT, or null without a rate. */
  valueUsdt: Type.Union([Amount, Type.Null()]),
});
export const UserAssets = Type.Object({
  /** Net worth in USDT: spot + frozen + position + product + collateral + competition + loan (real funds only). */
  totalUsdt: Amount,
  /** Each kind summed over the currencies in USDT; demo is the virtual funds, apart from the total. */
  byKind: KindAmounts,
  currencies: Type.Array(CurrencyAssets),
  /** Currencies held that no rate values: left out of the totals. */
  unpriced: Type.Array(Type.String()),
});
export type UserAssets = Static<typeof UserAssets>;

export const BalanceLogQuery = Type.Object({
  ...PageQuery,
  /** A transfer kind ("deposit", "withdrawal", ...). */
  type: Type.Optional(Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z_]+$' })),
  currency: Type.Optional(CurrencyCode),
  /** Inclusive start and exclusive end, ms. */
  startTime: Type.Optional(Type.Integer({ minimum: 0 })),
  endTime: Type.Optional(Type.Integer({ minimum: 0 })),
}, { additionalProperties: false });
export const BalanceLogEntry = Type.Object({
  /** The ledger transfer. */
  id: Type.String(),
  type: Type.String(),
  currency: Type.String(),
  /** Which of the user's accounts moved: spot, frozen, ... */
  account: Type.String(),
  /** Signed: + into the account, - out of it. */
  amount: Amount,
  balanceAfter: Amount,
  /**
   * Which step of a movement the entry is: single (moved at once), pending (reserved: the posted
   * balance stays, the available one drops — a withdrawal under review), post (the reservation
   * moved), void (the reservation given back). Optional: an extension the spec does not show.
   */
  phase: Type.Optional(Type.Union([Type.Literal('single'), Type.Literal('pending'), Type.Literal('post'), Type.Literal('void')])),
  time: Type.Integer(),
  reference: Type.String(),
  remark: Type.Union([Type.String(), Type.Null()]),
});
export type BalanceLogEntry = Static<typeof BalanceLogEntry>;

/**
 * Where a business event's money is: done (moved at once: a deposit, a swap), held (reserved or
 * sitting in an internal account: a withdrawal under review, a running contract's margin),
 * released (the hold resolved: a withdrawal paid out, a contract closed), returned (a hold given
 * back whole: a withdrawal rejected).
 */
export const balanceEventStates = ['done', 'held', 'released', 'returned'] as const;
export type BalanceEventState = (typeof balanceEventStates)[number];

/**
 * One business event of the ledger: every entry of one reference ("withdrawal:42", "position:7")
 * in one currency on the user's accounts, folded. Internal moves (spot ↔ frozen, spot ↔ position
 * margin) are inside it, not beside it; the raw entries stay on balanceLog.
 */
export const BalanceLogEvent = Type.Object({
  /** `<reference>|<currency>`: stable while the event grows (a hold, then its payout). */
  id: Type.String(),
  reference: Type.String(),
  /** deposit, withdrawal, contract, options, swap, correction, demo_grant... (else the first entry's kind). */
  type: Type.String(),
  currency: Type.String(),
  state: Type.Union(balanceEventStates.map((state) => Type.Literal(state))),
  /** Signed net change of the spot balance over the event: a paid withdrawal -31, a closed contract its net result. */
  amount: Amount,
  /** Unsigned: what the event holds (state held) or held before it was released or returned; 0 when it never held. */
  held: Amount,
  /** The spot balance after the event last moved it; null when it never moved it (a hold, a returned hold). */
  balanceAfter: Type.Union([Amount, Type.Null()]),
  /** Its first and its latest entry, ms. */
  startTime: Type.Integer(),
  time: Type.Integer(),
  /** The latest remark of its entries (a rejection's reason). */
  remark: Type.Union([Type.String(), Type.Null()]),
  /** How many raw entries it folds. */
  entryCount: Type.Integer({ minimum: 1 }),
});
export type BalanceLogEvent = Static<typeof BalanceLogEvent>;

export const DepositAddressQuery = Type.Object({ currency: CurrencyCode, network: NetworkCode }, { additionalProperties: false });
export const DepositAddress = Type.Object({
  currency: Type.String(),
  network: Type.String(),
  address: Type.String(),
  depositMin: Amount,
});
export type DepositAddress = Static<typeof DepositAddress>;

/** 'chat': a photo sent in the support chat (images only; contract/chat.ts). */
export const uploadPurposes = ['deposit_proof', 'identity', 'chat', 'loan_signature'] as const;
export type UploadPurpose = (typeof uploadPurposes)[number];
export const UploadResult = Type.Object({
  id: Type.String(),
  /** Where the owner reads the file back (with X-Access-Token). */
  url: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
});
export type UploadResult = Static<typeof UploadResult>;

export const TxHash = Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9]+$' });
export const RechargeApplyBody = Type.Object({
  currency: CurrencyCode,
  network: NetworkCode,
  amount: AmountText,
  proofFileId: UploadId,
  txHash: Type.Optional(TxHash),
}, { additionalProperties: false });
export type RechargeApplyBody = Static<typeof RechargeApplyBody>;

export const RechargeRecord = Type.Object({
  id: Type.String(),
  currency: Type.String(),
  network: Type.String(),
  amount: Amount,
  depositAddress: Type.String(),
  txHash: Type.Union([Type.String(), Type.Null()]),
  proofFileId: Type.String(),
  proofUrl: Type.String(),
  status: RechargeStatus,
  /** The operator's reason when rejected. */
  reason: Type.Union([Type.String(), Type.Null()]),
  createTime: Type.Integer(),
  decideTime: Type.Union([Type.Integer(), Type.Null()]),
});
export type RechargeRecord = Static<typeof RechargeRecord>;

export const RechargeListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(RechargeStatus),
}, { additionalProperties: false });

// ─── Operators ────────────────────────────────────────────────────────────────────────────────

export const AdminRechargeListQuery = RechargeListQuery;
export const AdminRechargeRecord = Type.Object({
  ...RechargeRecord.properties,
  userId: Type.String(),
  /** The user's e-mail, phone or guest name, whichever they have. */
  userAccount: Type.String(),
  /** Where an operator reads the proof. */
  proofAdminUrl: Type.String(),
  decidedBy: Type.Union([Type.String(), Type.Null()]),
  /** Two when the amount, with the user's deposits credited in the last 24 hours, passes the currency's threshold. */
  approvalsRequired: Type.Integer(),
  /** The operators who approved so far; the approval that reaches `approvalsRequired` credits the deposit. */
  approvals: Type.Array(Type.Object({ operatorId: Type.String(), time: Type.Integer() })),
});
export type AdminRechargeRecord = Static<typeof AdminRechargeRecord>;
/** Count and sum (of the currency's scale) of one kind of movement. */
const MovementTotal = Type.Object({ count: Type.Integer(), total: Type.String() });

/**
 * The user's context beside a deposit or withdrawal under review: verification level, account
 * age, balances, the money that moved in the last 30 days (deposits credited, withdrawals paid out)
 * per currency, and the user's earlier rejected requests.
 */
export const AdminReviewContext = Type.Object({
  userId: Type.String(),
  account: Type.String(),
  kycLevel: Type.Integer({ minimum: 0, maximum: 2 }),
  /** When the account was created (ms): its age is now minus this. */
  createTime: Type.Integer(),
  balances: Type.Array(CurrencyBalance),
  last30Days: Type.Array(Type.Object({ currency: Type.String(), deposits: MovementTotal, withdrawals: MovementTotal })),
  rejections: Type.Object({
    /** Deposits and withdrawals rejected by an operator, ever. */
    count: Type.Integer(),
    latestReason: Type.Union([Type.String(), Type.Null()]),
    latestTime: Type.Union([Type.Integer(), Type.Null()]),
  }),
});
export type AdminReviewContext = Static<typeof AdminReviewContext>;

export const RecordIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 20, pattern: '^[1-9][0-9]{0,18}$' }) });
export const RejectBody = Type.Object({
  reason: Type.String({ minLength: 2, maxLength: 200 }),
}, { additionalProperties: false });

export const AdminNetwork = Type.Object({
  ...CurrencyNetwork.properties,
  depositAddress: Type.Union([Type.String(), Type.Null()]),
});
export const AdminCurrency = Type.Object({
  currency: Type.String(),
  name: Type.String(),
  scale: Type.Integer(),
  enabled: Type.Boolean(),
  usdtRate: Type.Union([Type.String(), Type.Null()]),
  usdtRateTime: Type.Union([Type.Integer(), Type.Null()]),
  networks: Type.Array(AdminNetwork),
});
export type AdminCurrency = Static<typeof AdminCurrency>;
export const CurrencyParams = Type.Object({ code: CurrencyCode });
export const NetworkParams = Type.Object({ code: CurrencyCode, network: NetworkCode });
/** A positive decimal ("67250.5"), at most 18 decimals. */
export const RateText = Type.String({ minLength: 1, maxLength: 40, pattern: '^[0-9]{1,20}(\\.[0-9]{1,18})?$' });
export const CurrencySettingsBody = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  /** null clears the rate (the currency is then valued only where the feed quotes it). */
  usdtRate: Type.Optional(Type.Union([RateText, Type.Null()])),
}, { additionalProperties: false });
export type CurrencySettingsBody = Static<typeof CurrencySettingsBody>;
export const NetworkSettingsBody = Type.Object({
  depositEnabled: Type.Optional(Type.Boolean()),
  withdrawalEnabled: Type.Optional(Type.Boolean()),
  /** null removes the address (deposits on the network stop). */
  depositAddress: Type.Optional(Type.Union([Type.String({ minLength: 10, maxLength: 128, pattern: '^[A-Za-z0-9]+$' }), Type.Null()])),
  depositMin: Type.Optional(AmountText),
  withdrawalMin: Type.Optional(AmountText),
  withdrawalFee: Type.Optional(AmountText),
}, { additionalProperties: false });
export type NetworkSettingsBody = Static<typeof NetworkSettingsBody>;
