// Team invitation and team income on the wire (issue 23). The spec names /marketing/myTeam (the
// team's figures: invitation code, link and QR code, team size, team income, subordinate levels,
// newly added today, number who deposited) and /set/appShortLink/use (resolves a short link and
// counts the visit); the rest is ours. Levels are the three levels below the user: level 1 invited
// by the user, level 2 by level 1, level 3 by level 2. "Today" is the current UTC day; income is
// credited daily for the previous UTC day by the team-commission job. Amounts are decimal strings
// in the asset's scale; rates are decimal percent strings ("20" = 20 % of the fees).
import { Type, type Static } from '@sinclair/typebox';
import { InviteCode } from './common.ts';
import { RateText } from './products.ts';
import { Amount, CurrencyCode, Page, PageQuery } from './wallet.ts';

export const teamPaths = {
  /** GET → MyTeam. */
  myTeam: '/marketing/myTeam',
  /** Ours: GET ?pageNo&pageSize → Page<TeamIncomeDay> (the caller's daily statements, newest first). */
  income: '/marketing/myTeam/income',
  /** Ours: GET → ShortLink (the caller's invitation short link, made on first call). */
  myShortLink: '/marketing/myTeam/shortLink',
  /** Ours: POST { inviteCode } binds an inviter once, for an account made without one (guest, wallet or provider login). */
  bindInviter: '/marketing/myTeam/bindInviter',
  /** GET ?code → ShortLinkUse (public): the target, and the visit counted. */
  useShortLink: '/set/appShortLink/use',
  /** Ours: GET /s/:code (under /api) answers a redirect to the app at the target, counting the visit. */
  shortRedirect: '/s/:code',
} as const;

export const teamAdminPaths = {
  /** GET → TeamRate[]; POST UpdateTeamRatesBody → TeamRate[]. */
  rates: '/admin/team/rates',
  /** GET ?day&userId&pageNo&pageSize → Page<AdminTeamCommission> (newest day first). */
  commissions: '/admin/team/commissions',
} as const;

export const teamLevels = [1, 2, 3] as const;
export const TeamLevel = Type.Integer({ minimum: 1, maximum: 3 });

export const TeamRate = Type.Object({
  level: TeamLevel,
  /** Percent of the fees a level's members paid that the user is credited. */
  ratePercent: Type.String(),
  updatedAt: Type.Optional(Type.Number()),
});
export type TeamRate = Static<typeof TeamRate>;

export const AssetAmount = Type.Object({ asset: Type.String(), amount: Amount });
export type AssetAmount = Static<typeof AssetAmount>;

export const TeamLevelFigures = Type.Object({
  level: TeamLevel,
  /** Members at this level. */
  members: Type.Integer(),
  /** Of them, registered today (UTC). */
  newToday: Type.Integer(),
  /** Of them, with at least one credited deposit. */
  deposited: Type.Integer(),
  ratePercent: Type.String(),
  /** Team income credited from this level's fees, per asset. */
  income: Type.Array(AssetAmount),
});
export type TeamLevelFigures = Static<typeof TeamLevelFigures>;

export const MyTeam = Type.Object({
  inviteCode: Type.String(),
  /** The registration link with the code (the app opens it at the register form, code filled in). */
  inviteLink: Type.String(),
  /** What the invitation QR code encodes: the invitation link. */
  qrCodeContent: Type.String(),
  /** The short link, once the user has made one (myShortLink). */
  shortLink: Type.Optional(Type.String()),
  /** Members of the three levels together. */
  teamSize: Type.Integer(),
  /** Team income ever credited, in USDT (other assets in teamIncomeByAsset). */
  teamIncome: Amount,
  teamIncomeByAsset: Type.Array(AssetAmount),
  /** How many levels below the user count (3). */
  subordinateLevels: Type.Integer(),
  newToday: Type.Integer(),
  depositedCount: Type.Integer(),
  levels: Type.Array(TeamLevelFigures),
  /** Whether the user has an inviter (bindInviter is refused once one is bound). */
  hasInviter: Type.Boolean(),
  /** The UTC day "today" refers to, YYYY-MM-DD. */
  today: Type.String(),
});
export type MyTeam = Static<typeof MyTeam>;

export const TeamIncomeLevel = Type.Object({
  level: TeamLevel,
  /** Members of this level who paid fees that day. */
  members: Type.Integer(),
  fees: Amount,
  ratePercent: Type.String(),
  amount: Amount,
});
export type TeamIncomeLevel = Static<typeof TeamIncomeLevel>;

/** One day's statement in one asset: the fees each level paid and the share credited. */
export const TeamIncomeDay = Type.Object({
  day: Type.String(),
  asset: Type.String(),
  fees: Amount,
  amount: Amount,
  levels: Type.Array(TeamIncomeLevel),
});
export type TeamIncomeDay = Static<typeof TeamIncomeDay>;

export const TeamIncomeQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const ShortLinkCode = Type.String({ minLength: 4, maxLength: 16, pattern: '^[A-Za-z0-9]+$' });
export const ShortLinkQuery = Type.Object({ code: ShortLinkCode }, { additionalProperties: false });

export const ShortLink = Type.Object({
  code: Type.String(),
  /** The link to share: opening it counts a visit and lands on the target. */
  url: Type.String(),
  /** The app path it leads to (after the #). */
  target: Type.String(),
  visits: Type.Integer(),
});
export type ShortLink = Static<typeof ShortLink>;

export const ShortLinkUse = Type.Object({
  code: Type.String(),
  target: Type.String(),
  /** The target as a full address of the app. */
  url: Type.String(),
  /** The invitation code the target carries, when it is an invitation. */
  inviteCode: Type.Optional(Type.String()),
  visits: Type.Integer(),
});
export type ShortLinkUse = Static<typeof ShortLinkUse>;

export const BindInviterBody = Type.Object({ inviteCode: InviteCode }, { additionalProperties: false });
export type BindInviterBody = Static<typeof BindInviterBody>;

export const UpdateTeamRatesBody = Type.Object({
  rates: Type.Array(Type.Object({ level: TeamLevel, ratePercent: RateText }, { additionalProperties: false }), { minItems: 1, maxItems: 3 }),
}, { additionalProperties: false });
export type UpdateTeamRatesBody = Static<typeof UpdateTeamRatesBody>;

export const AdminTeamCommissionsQuery = Type.Object({
  day: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })),
  userId: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,17}$' })),
  ...PageQuery,
}, { additionalProperties: false });
export type AdminTeamCommissionsQuery = Static<typeof AdminTeamCommissionsQuery>;

export const AdminTeamCommission = Type.Object({
  day: Type.String(),
  userId: Type.String(),
  fromUserId: Type.String(),
  level: TeamLevel,
  asset: CurrencyCode,
  fees: Amount,
  ratePercent: Type.String(),
  amount: Amount,
  transferId: Type.Optional(Type.String()),
});
export type AdminTeamCommission = Static<typeof AdminTeamCommission>;

export const TeamIncomePage = Page(TeamIncomeDay);
