// The wallet's currencies: which ledger assets users deposit and withdraw, on which networks, with
// the platform's deposit address and the minimums and fees of each (currency, network), and the
// USDT rate a currency is valued at. Scales are the ledger's (ledger/assets.ts): the wallet never
// keeps a second copy of them.
import { and, asc, desc, eq, lte } from 'drizzle-orm';
import type {
  AdminCurrency, CurrencyInfo, CurrencyRate, CurrencySettingsBody, NetworkSettingsBody,
} from '../../../../src/api/contract/wallet.ts';
import type { Executor } from '../../../db/client.ts';
import { ledgerAssets, marketTicks, walletCurrencies, walletNetworks } from '../../../db/schema.ts';
import { AppError, badRequest, notFound } from '../../../lib/errors.ts';
import { formatAmount, parseAmount, type AmountRefusal } from '../../kernel/ledger/amounts.ts';
import type { Valuation } from '../../kernel/ledger/dualControl.ts';
import { loadLatestCandles } from '../market/store.ts';
import type { MarketView } from '../market/view.ts';
import { symbolByCode } from '../market/symbols.ts';
import { checkAddress } from './addresses.ts';

interface NetworkSeed { network: string; depositMin: string; withdrawalMin: string; withdrawalFee: string; depositEnabled?: boolean }
interface CurrencySeed { code: string; sortOrder: number; usdtRate?: string; networks: NetworkSeed[] }

/**
 * What a fresh install offers. Minimums and fees are typical of each network (an ERC20 transfer
 * costs more gas than a TRC20 one). USDC has no pair in the market feed, so it starts at an
 * operator rate of 1 USDT; the others are valued at the feed's price.
 */
const seededCurrencies: readonly CurrencySeed[] = [
  { code: 'USDT', sortOrder: 1, networks: [
    { network: 'TRC20', depositMin: '10', withdrawalMin: '10', withdrawalFee: '1' },
    { network: 'ERC20', depositMin: '10', withdrawalMin: '20', withdrawalFee: '5' },
    // Payouts to a bound bank card (withdrawals.ts bankNetwork): paid by an operator in the
    // card's currency at the day's rate; nothing is deposited this way.
    { network: 'BANK', depositMin: '10', withdrawalMin: '20', withdrawalFee: '2', depositEnabled: false },
  ] },
  { code: 'BTC', sortOrder: 2, networks: [
    { network: 'BTC', depositMin: '0.0005', withdrawalMin: '0.001', withdrawalFee: '0.0002' },
  ] },
  { code: 'ETH', sortOrder: 3, networks: [
    { network: 'ERC20', depositMin: '0.005', withdrawalMin: '0.01', withdrawalFee: '0.002' },
  ] },
  { code: 'USDC', sortOrder: 4, usdtRate: '1', networks: [
    { network: 'ERC20', depositMin: '10', withdrawalMin: '20', withdrawalFee: '5' },
  ] },
];

/**
 * Deposit addresses for a demo install only: each network's well-known burn address (funds sent
 * there are provably unspendable), so a demo can never collect anyone's real coins. A real
 * install has none until an operator sets its own, and takes no deposits before that.
 */
const demoDepositAddresses: Record<string, string> = {
  TRC20: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
  ERC20: '0x000000000000000000000000000000000000dEaD',
  BTC: '1BitcoinEaterAddressDontSendf59kuE',
};

/** Adds the currencies and networks a fresh install needs; an operator's later changes are kept. */
export async function seedWalletCurrencies(db: Executor, now: Date = new Date()) {
  const assets = new Map((await db.select().from(ledgerAssets)).map((asset) => [asset.code, asset]));
  for (const currency of seededCurrencies) {
    const asset = assets.get(currency.code);
    if (!asset) continue;
    await db.insert(walletCurrencies).values({
      code: currency.code, sortOrder: currency.sortOrder, usdtRate: currency.usdtRate ?? null,
      usdtRateUpdatedAt: currency.usdtRate ? now : null,
    }).onConflictDoNothing();
    for (const network of currency.networks) {
      const atomic = (text: string) => mustParse(text, asset.scale);
      await db.insert(walletNetworks).values({
        currency: currency.code, network: network.network, depositMin: atomic(network.depositMin),
        withdrawalMin: atomic(network.withdrawalMin), withdrawalFee: atomic(network.withdrawalFee),
        depositEnabled: network.depositEnabled ?? true,
      }).onConflictDoNothing();
    }
  }
}

/** Gives the seeded networks that have no address the demo's burn addresses. */
export async function seedDemoDepositAddresses(db: Executor) {
  const networks = await db.select().from(walletNetworks);
  for (const row of networks) {
    const address = demoDepositAddresses[row.network];
    if (row.depositAddress === null && address) {
      await db.update(walletNetworks).set({ depositAddress: address })
        .where(and(eq(walletNetworks.currency, row.currency), eq(walletNetworks.network, row.network)));
    }
  }
}

function mustParse(text: string, scale: number): bigint {
  const parsed = parseAmount(text, scale);
  if (!parsed.ok) throw new Error(`seeded amount ${text}: ${parsed.refusal}`);
  return parsed.atomic;
}

export type CurrencyRow = typeof walletCurrencies.$inferSelect & { name: string; scale: number };
export type NetworkRow = typeof walletNetworks.$inferSelect;

/** Every wallet currency with its ledger name and scale, in display order, and its networks. */
export async function loadCurrencies(db: Executor): Promise<Array<CurrencyRow & { networks: NetworkRow[] }>> {
  const rows = await db.select({ currency: walletCurrencies, name: ledgerAssets.name, scale: ledgerAssets.scale })
    .from(walletCurrencies).innerJoin(ledgerAssets, eq(ledgerAssets.code, walletCurrencies.code))
    .orderBy(asc(walletCurrencies.sortOrder), asc(walletCurrencies.code));
  const networks = await db.select().from(walletNetworks).orderBy(asc(walletNetworks.currency), asc(walletNetworks.network));
  return rows.map((row) => ({
    ...row.currency, name: row.name, scale: row.scale,
    networks: networks.filter((network) => network.currency === row.currency.code),
  }));
}

/** The list users see: enabled currencies with their networks (addresses come from getAddr). */
export async function currencyList(db: Executor): Promise<CurrencyInfo[]> {
  return (await loadCurrencies(db)).filter((currency) => currency.enabled).map((currency) => ({
    currency: currency.code, name: currency.name, scale: currency.scale,
    networks: currency.networks.map((network) => ({
      network: network.network, depositEnabled: network.depositEnabled, withdrawalEnabled: network.withdrawalEnabled,
      depositMin: formatAmount(network.depositMin, currency.scale),
      withdrawalMin: formatAmount(network.withdrawalMin, currency.scale),
      withdrawalFee: formatAmount(network.withdrawalFee, currency.scale),
    })),
  }));
}

/** An enabled currency and one of its networks, or the refusal naming which is unknown. */
export async function requireNetwork(db: Executor, currency: string, network: string): Promise<{ currency: CurrencyRow; network: NetworkRow }> {
  const [row] = await db.select({ currency: walletCurrencies, name: ledgerAssets.name, scale: ledgerAssets.scale })
    .from(walletCurrencies).innerJoin(ledgerAssets, eq(ledgerAssets.code, walletCurrencies.code))
    .where(eq(walletCurrencies.code, currency)).limit(1);
  if (!row || !row.currency.enabled) throw notFound('currency_unknown', `The currency ${currency} is not offered.`);
  const [networkRow] = await db.select().from(walletNetworks)
    .where(and(eq(walletNetworks.currency, currency), eq(walletNetworks.network, network))).limit(1);
  if (!networkRow) throw notFound('network_unknown', `${currency} is not offered on the network ${network}.`);
  return { currency: { ...row.currency, name: row.name, scale: row.scale }, network: networkRow };
}

/** Like requireNetwork, and the network takes deposits: it is enabled and has an address. */
export async function requireDepositNetwork(db: Executor, currency: string, network: string) {
  const found = await requireNetwork(db, currency, network);
  if (!found.network.depositEnabled || !found.network.depositAddress) {
    throw badRequest('deposit_unavailable', `Deposits of ${currency} on ${network} are not available at the moment.`);
  }
  return { ...found, depositAddress: found.network.depositAddress };
}

const amountMessages: Record<AmountRefusal | 'amount_not_positive', string> = {
  amount_empty: 'Please enter an amount.',
  amount_negative: 'The amount cannot be negative.',
  amount_exponent: 'Please write the amount in plain digits, without an exponent.',
  amount_malformed: 'The amount must be digits with at most one decimal point.',
  amount_too_many_decimals: 'The amount has more decimals than the currency allows.',
  amount_too_large: 'The amount is too large.',
  amount_not_positive: 'The amount must be more than zero.',
};

/** A user's amount as atomic units of `scale`, more than zero, or a refusal naming why not. */
export function parseUserAmount(text: string, scale: number, extra: Record<string, unknown> = {}): bigint {
  const parsed = parseAmount(text, scale);
  if (!parsed.ok) throw new AppError(400, parsed.refusal, amountMessages[parsed.refusal], { scale, ...extra });
  if (parsed.atomic === 0n) throw new AppError(400, 'amount_not_positive', amountMessages.amount_not_positive, extra);
  return parsed.atomic;
}

/** USDT per unit as an integer of 10^-precision, with where it came from and when. */
export interface Rate { units: bigint; precision: number; source: CurrencyRate['source']; timeMs: number }

const operatorRatePrecision = 18;

/**
 * The USDT rate of a currency: 1 for USDT, else the feed's last price of <code>USDT when the feed
 * quotes it, else the operator's rate. Undefined when there is none.
 */
export function rateOf(currency: Pick<CurrencyRow, 'code' | 'usdtRate' | 'usdtRateUpdatedAt'>, market: MarketView, nowMs: number): Rate | undefined {
  if (currency.code === 'USDT') return { units: 1n, precision: 0, source: 'par', timeMs: nowMs };
  const symbol = `${currency.code}USDT`;
  const spec = symbolByCode.get(symbol);
  const last = market.lastPrice(symbol);
  if (spec && last) {
    const parsed = parseAmount(last.price, spec.pricePrecision);
    if (parsed.ok && parsed.atomic > 0n) return { units: parsed.atomic, precision: spec.pricePrecision, source: 'feed', timeMs: last.time };
  }
  return operatorRateOf(currency);
}

/** The rate an operator set for a currency the feed does not quote, if any. */
function operatorRateOf(currency: Pick<CurrencyRow, 'usdtRate' | 'usdtRateUpdatedAt'>): Rate | undefined {
  if (currency.usdtRate === null || currency.usdtRateUpdatedAt === null) return undefined;
  const parsed = parseAmount(currency.usdtRate, operatorRatePrecision);
  return parsed.ok && parsed.atomic > 0n
    ? { units: parsed.atomic, precision: operatorRatePrecision, source: 'operator', timeMs: currency.usdtRateUpdatedAt.getTime() }
    : undefined;
}

/** A rate as the wire shows it: the decimals it was quoted with, trailing zeros dropped. */
export function rateText(rate: Rate): string {
  const text = formatAmount(rate.units, rate.precision);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** Atomic units of USDT (scale `usdtScale`) worth `amountAtomic` of a currency of `scale`, cut toward zero. */
export function valueInUsdt(amountAtomic: bigint, scale: number, rate: Rate, usdtScale: number): bigint {
  return (amountAtomic * rate.units * 10n ** BigInt(usdtScale)) / 10n ** BigInt(scale + rate.precision);
}

/**
 * What `amountAtomic` of `code` is worth in USDT at the last price recorded at or before `now`,
 * for the two-operator rule (ledger/dualControl.ts): USDT at par, else the last recorded tick of
 * its USDT pair, else that pair's latest one-minute candle, else the operator's rate. Null when
 * there is none: the rule then asks for two operators.
 */
export async function valueForDualControl(db: Executor, code: string, scale: number, amountAtomic: bigint, now: Date): Promise<Valuation> {
  const [usdtAsset] = await db.select({ scale: ledgerAssets.scale }).from(ledgerAssets).where(eq(ledgerAssets.code, 'USDT')).limit(1);
  const usdtScale = usdtAsset?.scale ?? 6;
  if (code === 'USDT') return { valueUsdt: (amountAtomic * 10n ** BigInt(usdtScale)) / 10n ** BigInt(scale), priceSource: 'par' };
  const spec = symbolByCode.get(`${code}USDT`);
  if (spec) {
    const [tick] = await db.select({ id: marketTicks.id, price: marketTicks.price }).from(marketTicks)
      .where(and(eq(marketTicks.symbol, spec.symbol), lte(marketTicks.time, now))).orderBy(desc(marketTicks.time), desc(marketTicks.id)).limit(1);
    if (tick && tick.price > 0n) {
      return { valueUsdt: valueInUsdt(amountAtomic, scale, { units: tick.price, precision: spec.pricePrecision, source: 'feed', timeMs: 0 }, usdtScale), priceSource: `tick:${tick.id}` };
    }
    const [candle] = await loadLatestCandles(db, [spec.symbol], ['1m'], now.getTime() + 1);
    if (candle && candle.close > 0n) {
      return { valueUsdt: valueInUsdt(amountAtomic, scale, { units: candle.close, precision: spec.pricePrecision, source: 'feed', timeMs: 0 }, usdtScale), priceSource: 'candle' };
    }
  }
  const [currency] = await db.select().from(walletCurrencies).where(eq(walletCurrencies.code, code)).limit(1);
  const rate = currency ? operatorRateOf(currency) : undefined;
  return rate ? { valueUsdt: valueInUsdt(amountAtomic, scale, rate, usdtScale), priceSource: 'operator' } : { valueUsdt: null, priceSource: null };
}

export async function loadCurrency(db: Executor, code: string): Promise<CurrencyRow | undefined> {
  const [row] = await db.select({ currency: walletCurrencies, name: ledgerAssets.name, scale: ledgerAssets.scale })
    .from(walletCurrencies).innerJoin(ledgerAssets, eq(ledgerAssets.code, walletCurrencies.code))
    .where(eq(walletCurrencies.code, code)).limit(1);
  return row ? { ...row.currency, name: row.name, scale: row.scale } : undefined;
}

// ─── Operator settings ────────────────────────────────────────────────────────────────────────

/** Every currency with everything an operator sets, addresses included. */
export async function adminCurrencies(db: Executor): Promise<AdminCurrency[]> {
  return (await loadCurrencies(db)).map(adminCurrencyOf);
}

function adminCurrencyOf(currency: CurrencyRow & { networks: NetworkRow[] }): AdminCurrency {
  return {
    currency: currency.code, name: currency.name, scale: currency.scale, enabled: currency.enabled,
    usdtRate: currency.usdtRate === null ? null : trimDecimal(currency.usdtRate),
    usdtRateTime: currency.usdtRateUpdatedAt?.getTime() ?? null,
    networks: currency.networks.map((network) => ({
      network: network.network, depositEnabled: network.depositEnabled, withdrawalEnabled: network.withdrawalEnabled,
      depositAddress: network.depositAddress,
      depositMin: formatAmount(network.depositMin, currency.scale),
      withdrawalMin: formatAmount(network.withdrawalMin, currency.scale),
      withdrawalFee: formatAmount(network.withdrawalFee, currency.scale),
    })),
  };
}

const trimDecimal = (text: string) => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

async function adminCurrency(db: Executor, code: string): Promise<AdminCurrency> {
  const found = (await loadCurrencies(db)).find((currency) => currency.code === code);
  if (!found) throw notFound('currency_unknown', `The currency ${code} is not offered.`);
  return adminCurrencyOf(found);
}

/** Switches a currency on or off and sets or clears its USDT rate; answers it before and after. */
export async function updateCurrencySettings(db: Executor, code: string, body: CurrencySettingsBody, now: Date) {
  const before = await adminCurrency(db, code);
  const changes: Partial<typeof walletCurrencies.$inferInsert> = {};
  if (body.enabled !== undefined) changes.enabled = body.enabled;
  if (body.usdtRate !== undefined) {
    if (body.usdtRate !== null && !/[1-9]/.test(body.usdtRate)) {
      throw badRequest('amount_not_positive', 'The rate must be more than zero.');
    }
    changes.usdtRate = body.usdtRate;
    changes.usdtRateUpdatedAt = body.usdtRate === null ? null : now;
  }
  if (Object.keys(changes).length > 0) await db.update(walletCurrencies).set(changes).where(eq(walletCurrencies.code, code));
  return { before, after: await adminCurrency(db, code) };
}

/** An operator's minimum or fee: zero allowed, the currency's scale at most. */
function settingAmount(text: string, scale: number, field: string): bigint {
  const parsed = parseAmount(text, scale);
  if (!parsed.ok) throw new AppError(400, parsed.refusal, `${field}: ${amountMessages[parsed.refusal]}`, { field, scale });
  return parsed.atomic;
}

/**
 * Sets a network's switches, address, minimums and fee; a network the currency does not have yet
 * is added, and then needs both minimums and the fee.
 */
export async function updateNetworkSettings(db: Executor, code: string, network: string, body: NetworkSettingsBody, now: Date) {
  const before = await adminCurrency(db, code);
  const scale = before.scale;
  const amounts = {
    depositMin: body.depositMin === undefined ? undefined : settingAmount(body.depositMin, scale, 'depositMin'),
    withdrawalMin: body.withdrawalMin === undefined ? undefined : settingAmount(body.withdrawalMin, scale, 'withdrawalMin'),
    withdrawalFee: body.withdrawalFee === undefined ? undefined : settingAmount(body.withdrawalFee, scale, 'withdrawalFee'),
  };
  // The address users will send coins to: checked with the network's own encoding, kept canonical.
  let depositAddress = body.depositAddress;
  if (depositAddress) {
    const checked = checkAddress(network, depositAddress);
    if (!checked.ok) throw badRequest(checked.refusal, `That is not a ${network} address the wallet can check.`);
    depositAddress = checked.address;
  }
  const changes = {
    ...(body.depositEnabled === undefined ? {} : { depositEnabled: body.depositEnabled }),
    ...(body.withdrawalEnabled === undefined ? {} : { withdrawalEnabled: body.withdrawalEnabled }),
    ...(depositAddress === undefined ? {} : { depositAddress }),
    ...Object.fromEntries(Object.entries(amounts).filter(([, value]) => value !== undefined)),
    updatedAt: now,
  };
  const exists = before.networks.some((row) => row.network === network);
  if (exists) {
    await db.update(walletNetworks).set(changes)
      .where(and(eq(walletNetworks.currency, code), eq(walletNetworks.network, network)));
  } else {
    if (amounts.depositMin === undefined || amounts.withdrawalMin === undefined || amounts.withdrawalFee === undefined) {
      throw badRequest('invalid_request', 'A new network needs its deposit minimum, withdrawal minimum and withdrawal fee.');
    }
    await db.insert(walletNetworks).values({
      ...changes, currency: code, network, depositMin: amounts.depositMin, withdrawalMin: amounts.withdrawalMin,
      withdrawalFee: amounts.withdrawalFee,
    });
  }
  return { before, after: await adminCurrency(db, code) };
}
