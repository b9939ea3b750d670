// Wire contract of the back office (operators, not users): paths under /api/admin, bodies and
// answers. Operator tokens and user tokens are different sessions; neither opens the other's routes.
import { Type, type Static } from '@sinclair/typebox';
import { EmailAddress } from './common.ts';

export const operatorRoles = ['admin', 'finance'] as const;
export type OperatorRole = (typeof operatorRoles)[number];

export const adminPaths = {
  login: '/admin/login',
  logout: '/admin/logout',
  me: '/admin/me',
  ledgerCheck: '/admin/ledger/check',
  audit: '/admin/audit',
} as const;

export const OperatorLoginBody = Type.Object({
  account: EmailAddress,
  password: Type.String({ minLength: 1, maxLength: 64 }),
  /** The authenticator's current 6-digit code (RFC 6238). */
  totpCode: Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' }),
}, { additionalProperties: false });
export type OperatorLoginBody = Static<typeof OperatorLoginBody>;

export const OperatorInfo = Type.Object({
  /** Decimal string of the operator's id. */
  id: Type.String(),
  email: Type.String(),
  role: Type.Union(operatorRoles.map((role) => Type.Literal(role))),
});
export type OperatorInfo = Static<typeof OperatorInfo>;

/** The ledger check (server/domain/kernel/ledger/verify.ts), amounts as decimal strings of the asset. */
export const LedgerCheckResult = Type.Object({
  chainValid: Type.Boolean(),
  balancesValid: Type.Boolean(),
  conserved: Type.Boolean(),
  transfers: Type.Integer(),
  accounts: Type.Integer(),
  assets: Type.Array(Type.Object({
    currency: Type.String(),
    ledger: Type.String(),
    sum: Type.String(),
    pendingSum: Type.String(),
  })),
  headsDigest: Type.String(),
  problems: Type.Array(Type.String()),
  checkedAt: Type.Integer(),
});
export type LedgerCheckResult = Static<typeof LedgerCheckResult>;

const Id = Type.String({ minLength: 1, maxLength: 19, pattern: '^[1-9][0-9]{0,18}$' });

export const AuditQuery = Type.Object({
  pageNo: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  operatorId: Type.Optional(Id),
  userId: Type.Optional(Id),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_.]*$' })),
}, { additionalProperties: false });
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditRecord = Type.Object({
  id: Type.String(),
  operatorId: Type.String(),
  operatorEmail: Type.String(),
  action: Type.String(),
  targetType: Type.String(),
  targetId: Type.Union([Type.String(), Type.Null()]),
  userId: Type.Union([Type.String(), Type.Null()]),
  before: Type.Unknown(),
  after: Type.Unknown(),
  reason: Type.Union([Type.String(), Type.Null()]),
  /** Epoch milliseconds. */
  time: Type.Integer(),
});
export type AuditRecord = Static<typeof AuditRecord>;
