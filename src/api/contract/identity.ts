// Identity verification (KYC) on the wire (issue 11). Level 1 basic: name, ID type and number,
// front and back photos (uploaded first through /sys/common/upload with purpose "identity");
// level 2 advanced: current address and an emergency contact. An application is 'pending' until
// an operator approves it or rejects it with a reason; a rejected level may be applied for again.
// What each level unlocks is a back-office setting the server enforces (withdrawal limit, loan
// limit, products). Ids are decimal strings, times milliseconds since the epoch, amounts decimal
// strings of USDT.
import { Type, type Static } from '@sinclair/typebox';
import { AmountText, UploadId, Page, PageQuery } from './wallet.ts';
import { RecordId } from './withdrawals.ts';

export const kycPaths = {
  applyBasic: '/auth/appAuth/applyKYC',
  applyAdvanced: '/auth/appAuth/applyAdvanced',
  /** Whether the user has applied at all (any level, any status): { basic, advanced } states. */
  isHaveAuth: '/auth/appAuth/isHaveAuth',
  /** Whether the user's verification is done (basic approved), with the level reached. */
  isHaveAuthDone: '/auth/appAuth/isHaveAuthDone',
  listMy: '/auth/appAuth/listMy',
  /** Ours: what each level unlocks (public), so the app can say it before the user applies. */
  levels: '/auth/appAuth/levels',
} as const;

/** Operator calls, under /api. */
export const kycAdminPaths = {
  list: '/admin/kyc',
  detail: '/admin/kyc/:id',
  approve: '/admin/kyc/:id/approve',
  reject: '/admin/kyc/:id/reject',
  /** An identity photo of an application, streamed to the operator; every view is audited. */
  photo: '/admin/kyc/:id/photo/:side',
  levels: '/admin/kyc-levels',
  level: '/admin/kyc-levels/:level',
  /** User search with each user's security state (no secrets). */
  users: '/admin/users',
  /**
   * An admin removes Google Authenticator from a user who lost it and the recovery codes, after
   * checking who asks (outside the app): a reason and the admin's own current code are required;
   * the user's sessions end, the user is told, and the audit trail records it.
   */
  resetGoogleAuth: '/admin/users/:id/google-auth/reset',
} as const;

export const KycStatus = Type.Union([Type.Literal('none'), Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]);
export type KycStatus = Static<typeof KycStatus>;
export const IdType = Type.Union([Type.Literal('passport'), Type.Literal('id_card')]);
export type IdType = Static<typeof IdType>;

const Name = Type.String({ minLength: 1, maxLength: 64 });
const Text200 = Type.String({ minLength: 1, maxLength: 200 });
const ContactPhone = Type.String({ minLength: 4, maxLength: 24, pattern: '^\\+?[0-9 ()-]{4,24}$' });

export const ApplyBasicBody = Type.Object({
  surname: Name,
  firstName: Name,
  idType: IdType,
  idNumber: Type.String({ minLength: 4, maxLength: 32, pattern: '^[A-Za-z0-9 -]{4,32}$' }),
  frontFileId: UploadId,
  backFileId: UploadId,
}, { additionalProperties: false });
export type ApplyBasicBody = Static<typeof ApplyBasicBody>;

export const ApplyAdvancedBody = Type.Object({
  currentAddress: Text200,
  emergencySurname: Name,
  emergencyName: Name,
  emergencyRelationship: Type.String({ minLength: 1, maxLength: 32 }),
  emergencyPhone: ContactPhone,
  emergencyAddress: Text200,
}, { additionalProperties: false });
export type ApplyAdvancedBody = Static<typeof ApplyAdvancedBody>;

/** One application as its owner sees it (no photo bytes: the photos are read by upload id). */
export const KycApplication = Type.Object({
  id: RecordId,
  level: Type.Union([Type.Literal(1), Type.Literal(2)]),
  status: Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]),
  /** The operator's reason when rejected. */
  reason: Type.Optional(Type.String()),
  createdAt: Type.Integer(),
  decidedAt: Type.Optional(Type.Integer()),
  /** Basic: surname, first name, ID type, the ID number's last 4 characters (masked). */
  surname: Type.Optional(Type.String()),
  firstName: Type.Optional(Type.String()),
  idType: Type.Optional(IdType),
  idNumberMasked: Type.Optional(Type.String()),
  frontFileId: Type.Optional(Type.String()),
  backFileId: Type.Optional(Type.String()),
});
export type KycApplication = Static<typeof KycApplication>;

/** isHaveAuth: the state of each level (the latest application's status, or none). */
export const KycState = Type.Object({
  basic: KycStatus,
  advanced: KycStatus,
  /** 0 unverified, 1 basic approved, 2 advanced approved. */
  level: Type.Integer({ minimum: 0, maximum: 2 }),
  /** The latest rejection's reason, per level. */
  basicReason: Type.Optional(Type.String()),
  advancedReason: Type.Optional(Type.String()),
});
export type KycState = Static<typeof KycState>;

/** isHaveAuthDone: whether basic verification is approved, and the level reached. */
export const KycDone = Type.Object({ done: Type.Boolean(), level: Type.Integer({ minimum: 0, maximum: 2 }) });
export type KycDone = Static<typeof KycDone>;

/** What a level unlocks. `withdrawDailyLimit` absent: no limit. */
export const KycLevel = Type.Object({
  level: Type.Integer({ minimum: 0, maximum: 2 }),
  withdrawDailyLimit: Type.Optional(Type.String()),
  loanLimit: Type.String(),
  productsOpen: Type.Boolean(),
});
export type KycLevel = Static<typeof KycLevel>;

export const KycListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const KycPage = Page(KycApplication);

// ── Back office ──
export const AdminKycListQuery = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')])),
  level: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
  userId: Type.Optional(RecordId),
  ...PageQuery,
}, { additionalProperties: false });

/** An application as an operator sees it: every field (the full ID number) and the user. */
export const AdminKycApplication = Type.Object({
  id: RecordId,
  userId: RecordId,
  account: Type.String(),
  level: Type.Union([Type.Literal(1), Type.Literal(2)]),
  status: Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]),
  details: Type.Record(Type.String(), Type.String()),
  hasFront: Type.Boolean(),
  hasBack: Type.Boolean(),
  reason: Type.Optional(Type.String()),
  decidedBy: Type.Optional(Type.String()),
  decidedAt: Type.Optional(Type.Integer()),
  createdAt: Type.Integer(),
});
export type AdminKycApplication = Static<typeof AdminKycApplication>;

export const KycRejectBody = Type.Object({ reason: Type.String({ minLength: 2, maxLength: 500 }) }, { additionalProperties: false });
export const KycLevelBody = Type.Object({
  withdrawDailyLimit: Type.Optional(Type.Union([AmountText, Type.Null()])),
  loanLimit: AmountText,
  productsOpen: Type.Boolean(),
}, { additionalProperties: false });

export const AdminUserQuery = Type.Object({
  /** An e-mail, phone, user name, wallet address or user id (prefix match on text). */
  q: Type.String({ minLength: 1, maxLength: 254 }),
  ...PageQuery,
}, { additionalProperties: false });

/** A user's security state for operators: what is bound and how many, never a secret. */
export const AdminUserSecurity = Type.Object({
  userId: RecordId,
  account: Type.String(),
  createdAt: Type.Integer(),
  kycLevel: Type.Integer(),
  kycPending: Type.Boolean(),
  googleBound: Type.Boolean(),
  recoveryCodesLeft: Type.Integer(),
  passkeys: Type.Integer(),
  wallets: Type.Array(Type.String()),
  oidcProviders: Type.Array(Type.String()),
  activeSessions: Type.Integer(),
  lastLoginAt: Type.Optional(Type.Integer()),
  lastLoginIp: Type.Optional(Type.String()),
  failedLogins24h: Type.Integer(),
});
export type AdminUserSecurity = Static<typeof AdminUserSecurity>;

/** resetGoogleAuth's body: why (recorded and sent to the user), and a fresh code of the operator's own authenticator. */
export const AdminResetGoogleAuthBody = Type.Object({
  reason: Type.String({ minLength: 10, maxLength: 500 }),
  operatorCode: Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' }),
}, { additionalProperties: false });
export type AdminResetGoogleAuthBody = Static<typeof AdminResetGoogleAuthBody>;

/** resetGoogleAuth's answer: how many of the user's sessions ended. */
export const AdminGoogleAuthReset = Type.Object({ sessionsEnded: Type.Integer() });
export type AdminGoogleAuthReset = Static<typeof AdminGoogleAuthReset>;
