// Withdrawals (issue 9): the destinations a user binds (a bank card or a chain address), the
// withdrawal password, withdrawal requests and their review by operators. Amounts are decimal
// strings of the currency's scale, ids are decimal strings, times milliseconds since the epoch.
import { Type, type Static } from '@sinclair/typebox';
import { Password, VerificationCode } from './common.ts';
import { AmountText, CurrencyCode, NetworkCode, Page, PageQuery } from './wallet.ts';

export const withdrawalPaths = {
  addDestination: '/user/appUserWithdrawalInfoSet/addAccount',
  editDestination: '/user/appUserWithdrawalInfoSet/editAccount',
  listDestinations: '/user/appUserWithdrawalInfoSet/listMy',
  setWithdrawPassword: '/user/appUser/setWithdrawPassword',
  changeWithdrawPassword: '/user/appUser/changeWithdrawPassword',
  apply: '/finance/appWithdrawal/apply',
  listMy: '/finance/appWithdrawal/listMy',
} as const;

/** Operator calls, under /api (the admin prefix is part of the path). */
export const withdrawalAdminPaths = {
  list: '/admin/withdrawals',
  approve: '/admin/withdrawals/:id/approve',
  reject: '/admin/withdrawals/:id/reject',
  paid: '/admin/withdrawals/:id/paid',
  failed: '/admin/withdrawals/:id/failed',
  /** Per currency, the amount above which two different operators must approve. */
  settings: '/admin/withdrawals/settings',
  setting: '/admin/withdrawals/settings/:currency',
} as const;

/** A database id on the wire: at most 18 digits, so it always fits a bigint column. */
export const RecordId = Type.String({ minLength: 1, maxLength: 18, pattern: '^[1-9][0-9]{0,17}$' });

/**
 * Ours, on adding or editing a destination: required when Google Authenticator is bound
 * (google_code_required), the authenticator's code or one of the recovery codes.
 */
const secondFactorFields = {
  googleCode: Type.Optional(Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' })),
  recoveryCode: Type.Optional(Type.String({ minLength: 8, maxLength: 32 })),
};

const bankFields = {
  ...secondFactorFields,
  type: Type.Literal('bank'),
  bankName: Type.String({ minLength: 1, maxLength: 64 }),
  realName: Type.String({ minLength: 1, maxLength: 64 }),
  /** Digits, or an IBAN (letters and digits); spaces and dashes are dropped. */
  cardNumber: Type.String({ minLength: 8, maxLength: 48 }),
};
const chainFields = {
  ...secondFactorFields,
  type: Type.Literal('chain'),
  currency: CurrencyCode,
  network: NetworkCode,
  address: Type.String({ minLength: 1, maxLength: 100 }),
};

export const AddDestinationBody = Type.Union([
  Type.Object(bankFields, { additionalProperties: false }),
  Type.Object(chainFields, { additionalProperties: false }),
]);
export type AddDestinationBody = Static<typeof AddDestinationBody>;

/** Replaces every field of one of the user's own destinations (its type may change too). */
export const EditDestinationBody = Type.Union([
  Type.Object({ id: RecordId, ...bankFields }, { additionalProperties: false }),
  Type.Object({ id: RecordId, ...chainFields }, { additionalProperties: false }),
]);
export type EditDestinationBody = Static<typeof EditDestinationBody>;

export const Destination = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal('bank'), Type.Literal('chain')]),
  bankName: Type.Union([Type.String(), Type.Null()]),
  realName: Type.Union([Type.String(), Type.Null()]),
  /** Only the last four characters are shown ("•••• 1234"); the full number is never sent back. */
  cardNumber: Type.Union([Type.String(), Type.Null()]),
  currency: Type.Union([Type.String(), Type.Null()]),
  network: Type.Union([Type.String(), Type.Null()]),
  /** As the server checked it: EIP-55 checksum case for EVM networks, bech32 in lower case. */
  address: Type.Union([Type.String(), Type.Null()]),
  createTime: Type.Integer(),
  updateTime: Type.Integer(),
});
export type Destination = Static<typeof Destination>;

export const SetWithdrawPasswordBody = Type.Object({
  password: Password,
  /** From getEmailCaptcha / getPhoneCaptcha with type=withdrawPassword, sent to the user's own address. */
  code: VerificationCode,
}, { additionalProperties: false });
export type SetWithdrawPasswordBody = Static<typeof SetWithdrawPasswordBody>;

export const ChangeWithdrawPasswordBody = Type.Object({
  oldPassword: Type.String({ minLength: 1, maxLength: 64 }),
  newPassword: Password,
}, { additionalProperties: false });
export type ChangeWithdrawPasswordBody = Static<typeof ChangeWithdrawPasswordBody>;

export const WithdrawalApplyBody = Type.Object({
  currency: CurrencyCode,
  /** What the destination receives; the network's fee is taken on top of it. */
  amount: AmountText,
  withdrawalInfoId: RecordId,
  withdrawPassword: Type.String({ minLength: 1, maxLength: 64 }),
  /** Required when Google Authenticator is bound (google_code_required). */
  googleCode: Type.Optional(Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' })),
}, { additionalProperties: false });
export type WithdrawalApplyBody = Static<typeof WithdrawalApplyBody>;

/** Spec §4: 0 under review, -1 rejected, 2 paid out, -2 failed. */
export const WithdrawalStatus = Type.Union([Type.Literal(0), Type.Literal(-1), Type.Literal(2), Type.Literal(-2)]);
export type WithdrawalStatus = Static<typeof WithdrawalStatus>;

export const Withdrawal = Type.Object({
  id: Type.String(),
  currency: Type.String(),
  /** The chain network, or "BANK" for a bank payout. */
  network: Type.String(),
  amount: Type.String(),
  fee: Type.String(),
  /** amount + fee: what left the balance. */
  total: Type.String(),
  status: WithdrawalStatus,
  /** The operator's reason for a rejection or a failure. */
  reason: Type.Union([Type.String(), Type.Null()]),
  /** The payout's reference once paid (a transaction hash, a bank reference). */
  payoutReference: Type.Union([Type.String(), Type.Null()]),
  /** Where it goes, as it was when the request was made (card number masked). */
  destination: Type.Object({
    type: Type.Union([Type.Literal('bank'), Type.Literal('chain')]),
    bankName: Type.Union([Type.String(), Type.Null()]),
    realName: Type.Union([Type.String(), Type.Null()]),
    cardNumber: Type.Union([Type.String(), Type.Null()]),
    address: Type.Union([Type.String(), Type.Null()]),
  }),
  createTime: Type.Integer(),
  /** When it was rejected, paid or failed. */
  decideTime: Type.Union([Type.Integer(), Type.Null()]),
});
export type Withdrawal = Static<typeof Withdrawal>;

export const WithdrawalListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(Type.Integer({ minimum: -2, maximum: 2 })),
}, { additionalProperties: false });
export type WithdrawalListQuery = Static<typeof WithdrawalListQuery>;
export const WithdrawalPage = Page(Withdrawal);

/** What an operator sees of a withdrawal: the user's view, its owner and its approvals. */
export const AdminWithdrawal = Type.Composite([Withdrawal, Type.Object({
  userId: Type.String(),
  /** The user's login (e-mail, "+code phone" or guest name). */
  account: Type.String(),
  /** Full, for the payout (the user's own view masks it). */
  cardNumber: Type.Union([Type.String(), Type.Null()]),
  approvalsRequired: Type.Integer(),
  approvals: Type.Array(Type.Object({ operatorId: Type.String(), time: Type.Integer() })),
  /** Set once enough operators approved: then it may be marked paid or failed. */
  approvedTime: Type.Union([Type.Integer(), Type.Null()]),
})]);
export type AdminWithdrawal = Static<typeof AdminWithdrawal>;
export const AdminWithdrawalPage = Page(AdminWithdrawal);

export const AdminWithdrawalParams = Type.Object({ id: RecordId }, { additionalProperties: false });
export const AdminReasonBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
export const AdminPaidBody = Type.Object({ reference: Type.String({ minLength: 1, maxLength: 128 }) }, { additionalProperties: false });

export const WithdrawalSetting = Type.Object({
  currency: Type.String(),
  /** A withdrawal of more than this needs two different operators' approval. */
  dualApprovalAbove: Type.String(),
});
export type WithdrawalSetting = Static<typeof WithdrawalSetting>;
export const WithdrawalSettingParams = Type.Object({ currency: CurrencyCode }, { additionalProperties: false });
export const WithdrawalSettingBody = Type.Object({ dualApprovalAbove: AmountText }, { additionalProperties: false });
