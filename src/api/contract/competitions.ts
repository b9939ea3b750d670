// Trading competitions on the wire (issue 23). Spec §4 statuses travel as numbers in `status`
// (1 in progress, 0 to be started, -2 ended, -3 exited); our text state is the optional `state`.
// Amounts are decimal strings in the asset's scale, rates of return decimal percent strings
// ("12.5" = 12.5 %), times epoch milliseconds. Live rank: equity = the competition account's
// balance + the margin of its open competition positions + their unrealised P/L at the last
// tick; return = (equity − entry) / entry; ranked by return, ties by the earlier join.
import { Type, type Static } from '@sinclair/typebox';
import { ClientOrderId } from './trading.ts';
import { AmountText, CurrencyCode, PageQuery } from './wallet.ts';
import { RecordId } from './withdrawals.ts';

export const competitionPaths = {
  /** GET ?status&pageNo&pageSize → Page<Competition> (public; a session adds `joined`). */
  list: '/marketing/competition/list',
  /** POST JoinCompetitionBody → CompetitionEntry (idempotent on clientOrderId). */
  join: '/marketing/competition/join',
  /** POST { id } → CompetitionEntry (status -3). */
  exit: '/marketing/competition/exit',
  /** Ours: GET ?id → CompetitionDetail with the live ranking (public; a session adds `myEntry`). */
  detail: '/marketing/competition/detail',
  /** Ours: GET ?pageNo&pageSize → Page<CompetitionEntry> (the caller's entries). */
  mine: '/marketing/competition/mine',
} as const;

export const competitionAdminPaths = {
  /** POST CreateCompetitionBody → AdminCompetition. GET → Page<AdminCompetition>. */
  competitions: '/admin/competitions',
  /** GET → AdminCompetitionDetail (ranking, entries, prize pool, payout). */
  competition: '/admin/competitions/:id',
} as const;

/** Spec §4 status numbers. */
export const competitionStatusCodes = { running: 1, scheduled: 0, ended: -2, exited: -3 } as const;
export const CompetitionStatusCode = Type.Union([Type.Literal(1), Type.Literal(0), Type.Literal(-2), Type.Literal(-3)]);
export type CompetitionStatusCode = Static<typeof CompetitionStatusCode>;
/** Our text state of a competition: settled once its prizes are paid. */
export const CompetitionState = Type.Union([
  Type.Literal('scheduled'), Type.Literal('running'), Type.Literal('ended'), Type.Literal('settled'), Type.Literal('cancelled'),
]);
export type CompetitionState = Static<typeof CompetitionState>;
export const EntryState = Type.Union([Type.Literal('joined'), Type.Literal('exited'), Type.Literal('ended')]);
export type EntryState = Static<typeof EntryState>;

export const PrizeRow = Type.Object({
  fromRank: Type.Integer({ minimum: 1, maximum: 100_000 }),
  toRank: Type.Integer({ minimum: 1, maximum: 100_000 }),
  /** Paid to each rank of the range. */
  amount: AmountText,
});
export type PrizeRow = Static<typeof PrizeRow>;

export const Competition = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: CompetitionStatusCode,
  state: Type.Optional(CompetitionState),
  asset: Type.String(),
  entryAmount: Type.String(),
  symbols: Type.Array(Type.String()),
  startTime: Type.Integer(),
  endTime: Type.Integer(),
  participants: Type.Integer(),
  maxParticipants: Type.Integer(),
  prizeAsset: Type.String(),
  prizes: Type.Array(PrizeRow),
  prizeTotal: Type.String(),
  /** With a session: whether the caller has an entry (joined, exited or ended). */
  joined: Type.Optional(Type.Boolean()),
});
export type Competition = Static<typeof Competition>;

export const RankingRow = Type.Object({
  rank: Type.Integer(),
  /** A masked name: never the account. */
  name: Type.String(),
  equity: Type.String(),
  returnRate: Type.String(),
  reward: Type.String(),
  joinTime: Type.Integer(),
  mine: Type.Optional(Type.Boolean()),
});
export type RankingRow = Static<typeof RankingRow>;

export const CompetitionEntry = Type.Object({
  id: Type.String(),
  competitionId: Type.String(),
  name: Type.String(),
  status: CompetitionStatusCode,
  state: Type.Optional(EntryState),
  entryAmount: Type.String(),
  asset: Type.String(),
  /** Live while joined; frozen at exit or the end. */
  equity: Type.String(),
  returnRate: Type.String(),
  /** Null when exited or not yet ranked. */
  rank: Type.Union([Type.Integer(), Type.Null()]),
  reward: Type.String(),
  joinTime: Type.Integer(),
  exitTime: Type.Union([Type.Integer(), Type.Null()]),
  startTime: Type.Integer(),
  endTime: Type.Integer(),
  clientOrderId: Type.String(),
  /** While joined: what the competition account can spend now (the contract page's available). */
  available: Type.Optional(Type.String()),
});
export type CompetitionEntry = Static<typeof CompetitionEntry>;

export const CompetitionDetail = Type.Object({
  ...Competition.properties,
  ranking: Type.Array(RankingRow),
  /** The formula of the live ranking, in words. */
  formula: Type.String(),
  myEntry: Type.Optional(Type.Union([CompetitionEntry, Type.Null()])),
});
export type CompetitionDetail = Static<typeof CompetitionDetail>;

export const CompetitionListQuery = Type.Object({
  /** 0 to be started, 1 in progress, -2 ended. */
  status: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(-2)])),
  ...PageQuery,
}, { additionalProperties: false });
export type CompetitionListQuery = Static<typeof CompetitionListQuery>;
export const CompetitionIdQuery = Type.Object({ id: RecordId }, { additionalProperties: false });
export const MyEntriesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export type MyEntriesQuery = Static<typeof MyEntriesQuery>;

export const JoinCompetitionBody = Type.Object({ id: RecordId, clientOrderId: ClientOrderId }, { additionalProperties: false });
export type JoinCompetitionBody = Static<typeof JoinCompetitionBody>;
export const ExitCompetitionBody = Type.Object({ id: RecordId }, { additionalProperties: false });
export type ExitCompetitionBody = Static<typeof ExitCompetitionBody>;

export const CreateCompetitionBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 80 }),
  names: Type.Optional(Type.Record(Type.String({ maxLength: 16 }), Type.String({ maxLength: 80 }))),
  /** The entry funds' asset: contracts are margined in USDT, so USDT. */
  asset: Type.Optional(CurrencyCode),
  entryAmount: AmountText,
  symbols: Type.Array(Type.String({ minLength: 1, maxLength: 24 }), { minItems: 1, maxItems: 50 }),
  startTime: Type.Integer({ minimum: 0 }),
  endTime: Type.Integer({ minimum: 0 }),
  /** 0: no limit. */
  maxParticipants: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  prizeAsset: Type.Optional(CurrencyCode),
  prizes: Type.Array(PrizeRow, { minItems: 0, maxItems: 100 }),
}, { additionalProperties: false });
export type CreateCompetitionBody = Static<typeof CreateCompetitionBody>;

export const AdminCompetitionsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const AdminCompetitionDetail = Type.Object({
  ...Competition.properties,
  ranking: Type.Array(Type.Intersect([RankingRow, Type.Object({ userId: Type.String(), entryId: Type.String(), state: EntryState })])),
  /** What the prizes of the frozen (or live) ranking add up to, and the prize pool's balance now. */
  prizesDue: Type.String(),
  poolBalance: Type.String(),
  /** Operator fundings of the prize pool for this competition (reward_fundings), when any. */
  fundings: Type.Array(Type.Object({ id: Type.String(), amount: Type.String(), status: Type.String(), createdAt: Type.Integer() })),
  payout: Type.Union([Type.Object({
    jobId: Type.String(), state: Type.String(), targetCount: Type.Integer(), targetsPosted: Type.Integer(),
    amountTotal: Type.String(), amountPosted: Type.String(),
  }), Type.Null()]),
  settledAt: Type.Union([Type.Integer(), Type.Null()]),
});
export type AdminCompetitionDetail = Static<typeof AdminCompetitionDetail>;

/** 123456 ppm → "12.3456" (percent with four decimals), signed. */
export function ratePercentOfPpm(ppm: bigint): string {
  const negative = ppm < 0n;
  const abs = negative ? -ppm : ppm;
  const whole = abs / 10_000n;
  const fraction = (abs % 10_000n).toString().padStart(4, '0');
  return `${negative && abs !== 0n ? '-' : ''}${whole}.${fraction}`;
}
