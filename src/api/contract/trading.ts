// Trading on the wire (issue 10): contracts with leverage, take-profit, stop-loss and liquidation;
// second (timed) contracts; flash swap; demo trading. The platform is the counterparty of every
// trade, so every outcome carries a receipt: the recorded ticks it used (id, price, time, source)
// and the figures of the arithmetic in tradingMath.ts, which a user can redo by hand.
// Amounts are decimal strings in the margin asset's scale (USDT, 6 decimals), prices decimal
// strings in the symbol's price precision, rates decimal strings ("0.0005" is 0.05 %), ids decimal
// strings, times milliseconds since the epoch. `demo` (optional everywhere, false when omitted)
// selects the demo ledger's virtual funds: a spec client that never sends it trades real money.
import { Type, type Static } from '@sinclair/typebox';
import { DecimalString, SymbolCode } from './market.ts';
import { AmountText, Page, PageQuery } from './wallet.ts';
import { RecordId } from './withdrawals.ts';

export const tradePaths = {
  /** Ours: every symbol's contract settings (public). */
  settings: '/trade/appSymbol/tradeSettings',
  /** The recorded ticks of a symbol between two times, so anyone can check a receipt. */
  ticks: '/trade/appSymbol/ticks',
  createPosition: '/trade/appTradePositions/create',
  updateStopLoss: '/trade/appTradePositions/updateStopLoss',
  closePosition: '/trade/appTradePositions/close/:id',
  listPositions: '/trade/appTradePositions/listMy',
  /** Ours: one of the user's positions with its receipt (?id=&demo=). */
  getPosition: '/trade/appTradePositions/queryById',
  summary: '/trade/appTradePositions/summary',
  secondSets: '/trade/appSecondContractSet/list',
  secondBuy: '/trade/appSecondContractOrder/buy',
  secondList: '/trade/appSecondContractOrder/listMy',
  secondHead: '/trade/appSecondContractOrder/head',
  /** Ours: the currencies that can be swapped, the fee rate and how long a quote lasts. */
  swapCurrencies: '/trade/appFlashExchangeLog/currencies',
  swapQuote: '/trade/appFlashExchangeLog/quote',
  swap: '/trade/appFlashExchangeLog/flashExchange',
  swapList: '/trade/appFlashExchangeLog/listMy',
  /** Ours: the user's demo funds (opened with the first call) and their reset. */
  demoAccount: '/trade/appDemo/account',
  demoReset: '/trade/appDemo/reset',
} as const;

/** The close path of one position. */
export const closePositionPath = (id: string) => tradePaths.closePosition.replace(':id', encodeURIComponent(id));

/** Operator calls, under /api. */
export const tradeAdminPaths = {
  symbolSettings: '/admin/trade/symbols',
  symbolSetting: '/admin/trade/symbols/:symbol',
  secondSets: '/admin/trade/second-sets',
  secondSet: '/admin/trade/second-sets/:symbol',
  swapSettings: '/admin/trade/swap',
  positions: '/admin/trade/positions',
  secondOrders: '/admin/trade/second-orders',
  swaps: '/admin/trade/swaps',
} as const;

/** Everything is margined, staked and settled in this asset. */
export const marginAsset = 'USDT';
/** Virtual funds a demo account starts with and returns to on reset. */
export const demoGrant = '100000';
/** A retry key chosen by the client: the same key returns the first result instead of trading twice. */
export const ClientOrderId = Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]{8,64}$' });
/** A price or rate as typed: digits with at most one point; checked against the symbol's precision by the server. */
export const PriceText = Type.String({ minLength: 1, maxLength: 40 });
const Demo = Type.Optional(Type.Boolean());

/**
 * Optional filters of the history lists (issue 19): ours, absent from spec clients' calls. `result`
 * is the outcome: won, lost or even (a position by its balance change, fees included; an option by
 * its status, draw being even). `since`/`until` (ms since the epoch, inclusive) bound the time the
 * list shows: closed or settled at, else opened; a swap's time.
 */
export const historyResults = ['won', 'lost', 'even'] as const;
export const HistoryResult = Type.Union(historyResults.map((result) => Type.Literal(result)));
export type HistoryResult = (typeof historyResults)[number];
const HistoryTimeFilters = {
  since: Type.Optional(Type.Integer({ minimum: 0 })),
  until: Type.Optional(Type.Integer({ minimum: 0 })),
};

export const Direction = Type.Union([Type.Literal('long'), Type.Literal('short')]);
export type Direction = Static<typeof Direction>;
export const positionStatuses = ['running', 'settling', 'closed'] as const;
export const PositionStatus = Type.Union(positionStatuses.map((status) => Type.Literal(status)));
export type PositionStatus = (typeof positionStatuses)[number];
/** `competition_end` (ours, issue 38): closed by a trading competition's end, at its end tick. */
export const closeReasons = ['user', 'take_profit', 'stop_loss', 'liquidation', 'competition_end'] as const;
export const CloseReason = Type.Union(closeReasons.map((reason) => Type.Literal(reason)));
export type CloseReason = (typeof closeReasons)[number];

/** A recorded tick of the market-data feed (market_ticks): what every settlement cites. */
export const TickRef = Type.Object({
  id: Type.String(),
  symbol: Type.String(),
  price: DecimalString,
  time: Type.Integer(),
  source: Type.String(),
});
export type TickRef = Static<typeof TickRef>;

export const TicksQuery = Type.Object({
  symbol: SymbolCode,
  from: Type.Integer({ minimum: 0 }),
  to: Type.Integer({ minimum: 0 }),
}, { additionalProperties: false });
export type TicksQuery = Static<typeof TicksQuery>;
/** At most this many ticks per answer (oldest first), and at most this span (ms) per query. */
export const ticksPerAnswerMax = 1000;
export const ticksSpanMaxMs = 3_600_000;

// ─── Contracts ───────────────────────────────────────────────────────────────────────────────

export const SymbolTradeSettings = Type.Object({
  symbol: Type.String(),
  /** False: the operator has not opened contracts on this symbol (or its quote is not USD). */
  enabled: Type.Boolean(),
  leverages: Type.Array(Type.Integer()),
  pricePrecision: Type.Integer(),
  /** Quantities are in the base asset with this many decimals. */
  quantityPrecision: Type.Integer(),
  quantityMin: DecimalString,
  quantityMax: DecimalString,
  /** Margin bounds in USDT. */
  marginMin: DecimalString,
  marginMax: DecimalString,
  /** Of the notional, charged at open and at close. */
  feeRate: DecimalString,
  /** Of the entry notional: when equity falls to it, the position is liquidated. */
  maintenanceMarginRate: DecimalString,
  /** In price units of the symbol: half is added to the tick price to buy, half taken off to sell. */
  spread: DecimalString,
  /** Whether the symbol's market trades now (forex and metals close at the weekend). */
  open: Type.Boolean(),
  reopensAt: Type.Optional(Type.Integer()),
});
export type SymbolTradeSettings = Static<typeof SymbolTradeSettings>;

/** Exactly one of `margin` (USDT) and `quantity` (base asset) sizes the position. */
export const CreatePositionBody = Type.Object({
  symbol: SymbolCode,
  direction: Direction,
  leverage: Type.Integer({ minimum: 1, maximum: 1000 }),
  margin: Type.Optional(AmountText),
  quantity: Type.Optional(AmountText),
  takeProfit: Type.Optional(PriceText),
  stopLoss: Type.Optional(PriceText),
  clientOrderId: ClientOrderId,
  demo: Demo,
  /** Ours (issue 23): trade inside this running trading competition, on its competition account. */
  competitionId: Type.Optional(RecordId),
}, { additionalProperties: false });
export type CreatePositionBody = Static<typeof CreatePositionBody>;

/** Sets both levels: an omitted one is removed. */
export const UpdateStopLossBody = Type.Object({
  id: RecordId,
  stopLoss: Type.Optional(PriceText),
  takeProfit: Type.Optional(PriceText),
  demo: Demo,
}, { additionalProperties: false });
export type UpdateStopLossBody = Static<typeof UpdateStopLossBody>;

/** The body of close/{id} is empty (spec §7); `demo` may travel in the query. */
export const ClosePositionQuery = Type.Object({ demo: Demo }, { additionalProperties: false });

export const PositionListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(PositionStatus),
  demo: Demo,
  symbol: Type.Optional(SymbolCode),
  /** Only closed positions have a result: with it the list holds closed ones only. */
  result: Type.Optional(HistoryResult),
  ...HistoryTimeFilters,
}, { additionalProperties: false });
export type PositionListQuery = Static<typeof PositionListQuery>;

export const PositionQuery = Type.Object({ id: RecordId, demo: Demo }, { additionalProperties: false });
export const DemoQuery = Type.Object({ demo: Demo }, { additionalProperties: false });

/**
 * How a closed position settled, with every figure of tradingMath.ts: the spot balance moved by
 * `balanceChange` = pnl − fee in all (−margin − openFee at open, payout at close).
 */
export const PositionReceipt = Type.Object({
  reason: CloseReason,
  entryTick: TickRef,
  exitTick: TickRef,
  /** The tick price plus or minus half the spread. */
  entryPrice: DecimalString,
  exitPrice: DecimalString,
  quantity: DecimalString,
  margin: DecimalString,
  /** quantity × (exit − entry), signed by direction, before the cap. */
  grossPnl: DecimalString,
  /** What the user gained or lost: the gross, but never a loss beyond the margin. */
  pnl: DecimalString,
  /** The part of a loss beyond the margin, borne by the house (0 when none). */
  shortfall: DecimalString,
  openFee: DecimalString,
  closeFee: DecimalString,
  /** openFee + closeFee. */
  fee: DecimalString,
  /** Returned to spot at close: margin + pnl − closeFee. */
  payout: DecimalString,
  /** pnl − fee. */
  balanceChange: DecimalString,
});
export type PositionReceipt = Static<typeof PositionReceipt>;

export const Position = Type.Object({
  id: Type.String(),
  symbol: Type.String(),
  direction: Direction,
  leverage: Type.Integer(),
  quantity: DecimalString,
  margin: DecimalString,
  openPrice: DecimalString,
  closePrice: Type.Union([DecimalString, Type.Null()]),
  takeProfit: Type.Union([DecimalString, Type.Null()]),
  stopLoss: Type.Union([DecimalString, Type.Null()]),
  /** Null when the margin covers any fall (leverage 1 on a long). */
  liquidationPrice: Type.Union([DecimalString, Type.Null()]),
  openFee: DecimalString,
  feeRate: DecimalString,
  maintenanceMarginRate: DecimalString,
  spread: DecimalString,
  status: PositionStatus,
  /** Realised, once closed (receipt.pnl); live profit or loss is the client's from the ticker. */
  pnl: Type.Union([DecimalString, Type.Null()]),
  demo: Type.Boolean(),
  clientOrderId: Type.String(),
  entryTick: TickRef,
  createTime: Type.Integer(),
  closeTime: Type.Union([Type.Integer(), Type.Null()]),
  receipt: Type.Union([PositionReceipt, Type.Null()]),
  /** Ours (issue 23): the trading competition whose account the position trades on. */
  competitionId: Type.Optional(Type.String()),
});
export type Position = Static<typeof Position>;

export const PositionsSummary = Type.Object({
  demo: Type.Boolean(),
  /** Spot USDT free to trade. */
  available: DecimalString,
  /** Margin held by running positions. */
  margin: DecimalString,
  /** At the last prices, what closing every running position would gain or lose (before fees). */
  unrealisedPnl: DecimalString,
  /** margin + unrealisedPnl. */
  equity: DecimalString,
  openPositions: Type.Integer(),
});
export type PositionsSummary = Static<typeof PositionsSummary>;

// ─── Second contracts ────────────────────────────────────────────────────────────────────────

export const SecondDirection = Type.Union([Type.Literal('up'), Type.Literal('down')]);
export type SecondDirection = Static<typeof SecondDirection>;
export const secondStatuses = ['open', 'won', 'lost', 'draw'] as const;
export const SecondStatus = Type.Union(secondStatuses.map((status) => Type.Literal(status)));
export type SecondStatus = (typeof secondStatuses)[number];

export const SecondContractSet = Type.Object({
  symbol: Type.String(),
  enabled: Type.Boolean(),
  /** Seconds, with the payout rate of each ("0.85": a win pays stake × 1.85). */
  durations: Type.Array(Type.Object({ seconds: Type.Integer(), payoutRate: DecimalString })),
  amountMin: DecimalString,
  amountMax: DecimalString,
  open: Type.Boolean(),
  reopensAt: Type.Optional(Type.Integer()),
});
export type SecondContractSet = Static<typeof SecondContractSet>;

export const SecondBuyBody = Type.Object({
  symbol: SymbolCode,
  direction: SecondDirection,
  duration: Type.Integer({ minimum: 1, maximum: 86_400 }),
  amount: AmountText,
  clientOrderId: ClientOrderId,
  demo: Demo,
}, { additionalProperties: false });
export type SecondBuyBody = Static<typeof SecondBuyBody>;

export const SecondListQuery = Type.Object({
  ...PageQuery,
  /** open, or settled (won, lost, draw). */
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('settled')])),
  demo: Demo,
  symbol: Type.Optional(SymbolCode),
  /** won, lost or even (draw): settled orders only. */
  result: Type.Optional(HistoryResult),
  ...HistoryTimeFilters,
}, { additionalProperties: false });
export type SecondListQuery = Static<typeof SecondListQuery>;

export const SecondOrder = Type.Object({
  id: Type.String(),
  symbol: Type.String(),
  direction: SecondDirection,
  duration: Type.Integer(),
  payoutRate: DecimalString,
  amount: DecimalString,
  status: SecondStatus,
  demo: Type.Boolean(),
  clientOrderId: Type.String(),
  /** When the server accepted the order; the entry is the first recorded tick at or after it. */
  acceptTime: Type.Integer(),
  /** acceptTime + duration; the exit is the first recorded tick at or after it. */
  expireTime: Type.Integer(),
  entryTick: Type.Union([TickRef, Type.Null()]),
  exitTick: Type.Union([TickRef, Type.Null()]),
  /** Paid back at settlement: amount × (1 + rate) won, amount draw, 0 lost. */
  payout: Type.Union([DecimalString, Type.Null()]),
  /** payout − amount. */
  pnl: Type.Union([DecimalString, Type.Null()]),
  settleTime: Type.Union([Type.Integer(), Type.Null()]),
});
export type SecondOrder = Static<typeof SecondOrder>;

/** Spec §3 trade asset info. */
export const SecondHead = Type.Object({
  demo: Type.Boolean(),
  /** Spot USDT available. */
  balance: DecimalString,
  openOrders: Type.Integer(),
  /** Sum of pnl of the orders settled since 00:00 UTC. */
  todayPnl: DecimalString,
});
export type SecondHead = Static<typeof SecondHead>;

// ─── Flash swap ──────────────────────────────────────────────────────────────────────────────

export const SwapCurrencies = Type.Object({
  currencies: Type.Array(Type.Object({ currency: Type.String(), scale: Type.Integer() })),
  /** Of the amount swapped, in the currency given. */
  feeRate: DecimalString,
  /** Taken off the mid price in the platform's favour. */
  spreadRate: DecimalString,
  quoteTtlSeconds: Type.Integer(),
});
export type SwapCurrencies = Static<typeof SwapCurrencies>;

export const SwapQuoteQuery = Type.Object({
  from: Type.String({ minLength: 2, maxLength: 12, pattern: '^[A-Z0-9]{2,12}$' }),
  to: Type.String({ minLength: 2, maxLength: 12, pattern: '^[A-Z0-9]{2,12}$' }),
  amount: AmountText,
}, { additionalProperties: false });
export type SwapQuoteQuery = Static<typeof SwapQuoteQuery>;

export const SwapQuote = Type.Object({
  quoteId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  /** In `from`. */
  amount: DecimalString,
  /** Units of `to` per unit of `from`, after the spread. */
  rate: DecimalString,
  /** In `from`. */
  fee: DecimalString,
  /** In `to`: (amount − fee) × rate, truncated to the scale of `to`. */
  receive: DecimalString,
  expiresAt: Type.Integer(),
  /** The ticks the rate was made from (none for a pair of USD stablecoins). */
  ticks: Type.Array(TickRef),
});
export type SwapQuote = Static<typeof SwapQuote>;

export const SwapBody = Type.Object({ quoteId: Type.String({ minLength: 16, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) },
  { additionalProperties: false });
export type SwapBody = Static<typeof SwapBody>;

export const SwapRecord = Type.Object({
  id: Type.String(),
  quoteId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  amount: DecimalString,
  fee: DecimalString,
  rate: DecimalString,
  receive: DecimalString,
  ticks: Type.Array(TickRef),
  createTime: Type.Integer(),
});
export type SwapRecord = Static<typeof SwapRecord>;
const SwapCurrency = Type.String({ minLength: 2, maxLength: 12, pattern: '^[A-Z0-9]{2,12}$' });
export const SwapListQuery = Type.Object({
  ...PageQuery,
  /** The pair, in the swap's direction: either side may be given alone. */
  from: Type.Optional(SwapCurrency),
  to: Type.Optional(SwapCurrency),
  ...HistoryTimeFilters,
}, { additionalProperties: false });
export type SwapListQuery = Static<typeof SwapListQuery>;

// ─── Demo ────────────────────────────────────────────────────────────────────────────────────

export const DemoAccount = Type.Object({
  /** Virtual USDT free to trade. */
  balance: DecimalString,
  /** Virtual USDT held by running demo positions and open demo second contracts. */
  inUse: DecimalString,
  openPositions: Type.Integer(),
  openOrders: Type.Integer(),
});
export type DemoAccount = Static<typeof DemoAccount>;

// ─── Operators ───────────────────────────────────────────────────────────────────────────────

export const SymbolSettingsBody = Type.Object({
  enabled: Type.Boolean(),
  leverages: Type.Array(Type.Integer({ minimum: 1, maximum: 1000 }), { minItems: 1, maxItems: 20 }),
  quantityMin: PriceText,
  quantityMax: PriceText,
  marginMin: PriceText,
  marginMax: PriceText,
  feeRate: PriceText,
  maintenanceMarginRate: PriceText,
  spread: PriceText,
  /**
   * Extension (issue 18): whether real (not demo) contracts, second contracts and swaps may use
   * this symbol while its price comes from the simulator. Absent: the stored choice is kept.
   */
  simulatedFeedRealTrading: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });
export type SymbolSettingsBody = Static<typeof SymbolSettingsBody>;

export const SecondSetBody = Type.Object({
  enabled: Type.Boolean(),
  durations: Type.Array(Type.Object({ seconds: Type.Integer({ minimum: 5, maximum: 86_400 }), payoutRate: PriceText },
    { additionalProperties: false }), { minItems: 1, maxItems: 12 }),
  amountMin: PriceText,
  amountMax: PriceText,
}, { additionalProperties: false });
export type SecondSetBody = Static<typeof SecondSetBody>;

export const SwapSettingsBody = Type.Object({
  enabled: Type.Boolean(),
  feeRate: PriceText,
  spreadRate: PriceText,
  quoteTtlSeconds: Type.Integer({ minimum: 3, maximum: 120 }),
}, { additionalProperties: false });
export type SwapSettingsBody = Static<typeof SwapSettingsBody>;

export const AdminTradeListQuery = Type.Object({
  ...PageQuery,
  userId: Type.Optional(RecordId),
  symbol: Type.Optional(SymbolCode),
  status: Type.Optional(Type.String({ maxLength: 16 })),
  demo: Demo,
}, { additionalProperties: false });
export type AdminTradeListQuery = Static<typeof AdminTradeListQuery>;

export const PositionPage = Page(Position);
export const SecondOrderPage = Page(SecondOrder);
export const SwapRecordPage = Page(SwapRecord);
