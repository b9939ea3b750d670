// Loans on the wire (issue 22): credit loans (limit by verification level plus the VIP level's
// credit limit) and pledge loans (BTC or ETH locked as collateral, live loan-to-value, margin call
// and liquidation at stated thresholds). Every application carries a signed agreement: the app
// fetches the terms (`agreement`), the user signs on a canvas, the PNG is uploaded
// (`/sys/common/upload`, purpose loan_signature) and its id is sent with the terms' SHA-256.
// Amounts are decimal strings; rates percent per day ("0.05"); LTVs percent ("65"); times epoch ms.
import { Type, type Static } from '@sinclair/typebox';
import { ClientOrderId } from './trading.ts';
import { AmountText, CurrencyCode, PageQuery, UploadId } from './wallet.ts';
import { RecordId } from './withdrawals.ts';
import { RateText } from './products.ts';

export const loanPaths = {
  /** GET → LoanSetting[] (public: the offers; with the caller's limit when logged in). */
  settings: '/prod/appLoanSet/list',
  /** GET → LoanInfo (the caller's limits, what is owed, open loans). */
  myInfo: '/prod/appLoanOrder/myLoanInfo',
  /** GET ?status&pageNo&pageSize → Page<Loan>. */
  myLoans: '/prod/appLoanOrder/listMy',
  /** Ours: GET ?id → Loan. */
  detail: '/prod/appLoanOrder/queryById',
  /** Ours: GET AgreementQuery → Agreement (the terms to sign, in the caller's language, and their SHA-256). */
  agreement: '/prod/appLoanOrder/agreement',
  /** Ours: GET ?id → application/pdf (the signed agreement: terms, signature image, time, hash). */
  agreementPdf: '/prod/appLoanOrder/agreementPdf',
  /** POST CreditApplyBody → Loan (pending review). */
  creditApply: '/prod/appLoanOrder/creditApply',
  /** POST PledgeApplyBody → Loan (pending review; collateral locked at once, released if rejected). */
  pledgeApply: '/prod/appLoanOrder/pledgeApply',
  /** POST { id, amount? } → Loan (amount absent: everything owed). */
  repay: '/prod/appLoanOrder/repay',
  /** Ours: POST { id, amount } → Loan (pledge: more collateral). */
  addCollateral: '/prod/appLoanOrder/addCollateral',
} as const;

export const loanAdminPaths = {
  /** GET ?status&userId&pageNo&pageSize → Page<AdminLoan>. */
  loans: '/admin/loans',
  /** GET → AdminLoan with the user's context. */
  loan: '/admin/loans/:id',
  approve: '/admin/loans/:id/approve',
  /** POST { reason } — the user reads it and may apply again. */
  reject: '/admin/loans/:id/reject',
  /** GET → the signed agreement PDF. */
  agreementPdf: '/admin/loans/:id/agreement.pdf',
  /** GET → the signature image. */
  signature: '/admin/loans/:id/signature',
  /** GET → LoanSetting[]; POST UpdateLoanSettingBody to /admin/loans/settings/:id. */
  settings: '/admin/loans/settings',
  setting: '/admin/loans/settings/:id',
} as const;

export const LoanType = Type.Union([Type.Literal('credit'), Type.Literal('pledge')]);
export type LoanType = Static<typeof LoanType>;
/** pending (under review), rejected (may apply again), active (funds received), repaid, liquidated. */
export const loanStatuses = ['pending', 'rejected', 'active', 'repaid', 'liquidated'] as const;
export const LoanStatus = Type.Union(loanStatuses.map((status) => Type.Literal(status)));
export type LoanStatus = Static<typeof LoanStatus>;

export const LoanSetting = Type.Object({
  id: Type.String(),
  type: LoanType,
  asset: Type.String(),
  collateralAsset: Type.Optional(Type.String()),
  dailyRate: Type.String(),
  /** Added per day once overdue. */
  penaltyRate: Type.String(),
  minDays: Type.Integer(),
  maxDays: Type.Integer(),
  minAmount: Type.String(),
  maxAmount: Type.String(),
  /** Pledge: percent. */
  initialLtv: Type.Optional(Type.String()),
  marginCallLtv: Type.Optional(Type.String()),
  liquidationLtv: Type.Optional(Type.String()),
  liquidationFee: Type.Optional(Type.String()),
  enabled: Type.Boolean(),
  /** Credit, logged in: what the caller may still borrow. */
  available: Type.Optional(Type.String()),
});
export type LoanSetting = Static<typeof LoanSetting>;

export const LoanInfo = Type.Object({
  kycLevel: Type.Integer(),
  vipLevel: Type.Integer(),
  /** Credit limit: the verification level's plus the VIP level's, in USDT. */
  creditLimit: Type.String(),
  creditUsed: Type.String(),
  creditAvailable: Type.String(),
  /** What is owed now (principal + interest + penalty − repaid), per asset. */
  owed: Type.Array(Type.Object({ asset: Type.String(), amount: Type.String() })),
  activeLoans: Type.Integer(),
  pendingLoans: Type.Integer(),
});
export type LoanInfo = Static<typeof LoanInfo>;

export const Loan = Type.Object({
  id: Type.String(),
  type: LoanType,
  settingId: Type.String(),
  clientOrderId: Type.String(),
  asset: Type.String(),
  amount: Type.String(),
  days: Type.Integer(),
  dailyRate: Type.String(),
  penaltyRate: Type.String(),
  /** amount × rate × days. */
  totalInterest: Type.String(),
  status: LoanStatus,
  rejectReason: Type.Optional(Type.String()),
  startsAt: Type.Optional(Type.Integer()),
  dueAt: Type.Optional(Type.Integer()),
  /** Interest and penalty accrued so far, repaid so far, and owed now. */
  interest: Type.String(),
  repaid: Type.String(),
  owed: Type.String(),
  overdue: Type.Boolean(),
  collateralAsset: Type.Optional(Type.String()),
  collateral: Type.Optional(Type.String()),
  /** Pledge: LTV now at the feed price, percent with 2 decimals, and the price used. */
  ltv: Type.Optional(Type.String()),
  price: Type.Optional(Type.String()),
  marginCalled: Type.Optional(Type.Boolean()),
  /** Pledge: the margin-call and liquidation LTVs (percent) and the fee as signed; an offer edited later does not move them. */
  marginCallLtv: Type.Optional(Type.String()),
  liquidationLtv: Type.Optional(Type.String()),
  liquidationFee: Type.Optional(Type.String()),
  /** Pledge, liquidated: the receipt (tick time and price, collateral sold, fee, repaid, returned). */
  liquidation: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
  termsHash: Type.String(),
  signedAt: Type.Integer(),
  createdAt: Type.Integer(),
  closedAt: Type.Optional(Type.Integer()),
});
export type Loan = Static<typeof Loan>;

export const AgreementQuery = Type.Object({
  settingId: RecordId,
  amount: AmountText,
  days: Type.Integer({ minimum: 1, maximum: 3650 }),
  collateral: Type.Optional(AmountText),
}, { additionalProperties: false });
export const Agreement = Type.Object({ terms: Type.String(), termsHash: Type.String() });
export type Agreement = Static<typeof Agreement>;

/**
 * The largest signature image the server takes, by its long and its short side (either way up).
 * The app's pad (features/loans/SignaturePad.tsx) is the form's width, at most 527 CSS px inside
 * the 575 px app, by 180 CSS px, times the screen's pixel ratio, and it keeps its bitmap within
 * these sides: a phone at ratio 3 gives about 1 581 × 540. Anything larger is no drawn signature,
 * only work for the server (issue 38: a 7000 × 5000 image decoded at every application).
 */
export const signatureSidesMaxPx = { long: 1600, short: 800 } as const;

const applyFields = {
  settingId: RecordId,
  amount: AmountText,
  days: Type.Integer({ minimum: 1, maximum: 3650 }),
  /** The uploaded signature (purpose loan_signature, the caller's own). */
  signatureFileId: UploadId,
  /** SHA-256 (hex) of the terms the user read; must match the server's terms for these figures. */
  termsHash: Type.String({ minLength: 64, maxLength: 64, pattern: '^[0-9a-f]{64}$' }),
  clientOrderId: ClientOrderId,
};
export const CreditApplyBody = Type.Object(applyFields, { additionalProperties: false });
export type CreditApplyBody = Static<typeof CreditApplyBody>;
export const PledgeApplyBody = Type.Object({ ...applyFields, collateral: AmountText }, { additionalProperties: false });
export type PledgeApplyBody = Static<typeof PledgeApplyBody>;
export const RepayBody = Type.Object({ id: RecordId, amount: Type.Optional(AmountText) }, { additionalProperties: false });
export const AddCollateralBody = Type.Object({ id: RecordId, amount: AmountText }, { additionalProperties: false });
export const MyLoansQuery = Type.Object({ status: Type.Optional(LoanStatus), ...PageQuery }, { additionalProperties: false });

export const UpdateLoanSettingBody = Type.Object({
  dailyRate: Type.Optional(RateText),
  penaltyRate: Type.Optional(RateText),
  minDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
  maxDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
  minAmount: Type.Optional(AmountText),
  maxAmount: Type.Optional(AmountText),
  initialLtv: Type.Optional(RateText),
  marginCallLtv: Type.Optional(RateText),
  liquidationLtv: Type.Optional(RateText),
  liquidationFee: Type.Optional(RateText),
  enabled: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

export { loanErrorCodes } from './investErrors.ts';
export { CurrencyCode };

/**
 * A loan as the back office sees it (added by the loans server work): the user's loan with who
 * applied; the detail adds the user's context (KYC and VIP level, balances, earlier loans).
 */
export const AdminLoan = Type.Object({
  ...Loan.properties,
  userId: Type.String(),
  userEmail: Type.Optional(Type.String()),
  reviewedBy: Type.Optional(Type.String()),
  reviewedAt: Type.Optional(Type.Integer()),
  kycLevel: Type.Optional(Type.Integer()),
  vipLevel: Type.Optional(Type.Integer()),
  /** Real ledger balances of the user, per asset and account kind (spot, loan, collateral...). */
  balances: Type.Optional(Type.Array(Type.Object({ asset: Type.String(), kind: Type.String(), amount: Type.String() }))),
  earlierLoans: Type.Optional(Type.Array(Type.Object({
    id: Type.String(), type: LoanType, asset: Type.String(), amount: Type.String(), status: LoanStatus, createdAt: Type.Integer(),
  }))),
  /** The terms as signed. */
  terms: Type.Optional(Type.String()),
});
export type AdminLoan = Static<typeof AdminLoan>;
export const AdminLoansQuery = Type.Object({
  status: Type.Optional(LoanStatus), userId: Type.Optional(RecordId), ...PageQuery,
}, { additionalProperties: false });
export const AdminLoanParams = Type.Object({ id: RecordId });
export const RejectLoanBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 300 }) }, { additionalProperties: false });
