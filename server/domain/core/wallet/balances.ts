// What a user holds, read from the ledger's accounts: per currency the available and frozen
// balance, and the totals of every kind valued in USDT at the feed's prices. Exact: atomic units
// in bigint, converted with integer arithmetic and cut toward zero, never a float.
import type { AssetKind, CurrencyBalance, UserAssets } from '../../../../src/api/contract/wallet.ts';
import type { Executor } from '../../../db/client.ts';
import { userBalances, type AccountBalance } from '../../kernel/ledger/accounts.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import { listAssets } from '../../kernel/ledger/assets.ts';
import type { MarketView } from '../market/view.ts';
import { loadCurrencies, rateOf, rateText, valueInUsdt, type Rate } from './currencies.ts';

const usdt = 'USDT';

/** Which asset kind of the wallet each ledger account kind counts as. */
const kindOfAccount: Record<string, TotalKind | undefined> = {
  spot: 'spot', frozen: 'frozen', position_margin: 'position', product_holdings: 'product', loan: 'loan', demo: 'demo',
  collateral: 'collateral', competition: 'competition',
};

/** The contract's kinds, the collateral pledge loans hold and the funds of trading competitions (optional fields on the wire). */
type TotalKind = AssetKind | 'collateral' | 'competition';
type KindTotals = Record<TotalKind, bigint>;
const zeroTotals = (): KindTotals => ({ spot: 0n, frozen: 0n, position: 0n, product: 0n, loan: 0n, demo: 0n, collateral: 0n, competition: 0n });

/**
 * Per currency and kind, in atomic units. What pending transfers reserve on the spot account
 * (a withdrawal under review) counts as frozen, not spot, wherever the reservation goes, so the
 * two always add up to what the user owns.
 */
function totalsByCurrency(accounts: AccountBalance[]): Map<string, KindTotals> {
  const totals = new Map<string, KindTotals>();
  for (const account of accounts) {
    // Everything in the demo ledger is virtual money, whatever the account's kind.
    const kind = account.ledger === 'demo' ? 'demo' : kindOfAccount[account.kind];
    if (!kind) continue;
    const sums = totals.get(account.asset) ?? zeroTotals();
    if (kind === 'spot') {
      sums.spot += account.availableAtomic;
      sums.frozen += account.debitsPendingAtomic;
    } else {
      sums[kind] += account.postedAtomic;
    }
    totals.set(account.asset, sums);
  }
  return totals;
}

async function accountsOf(db: Executor, userId: bigint) {
  return [...await userBalances(db, userId, 'real'), ...await userBalances(db, userId, 'demo')];
}

/** Available and frozen per wallet currency, every offered currency listed (zero when untouched). */
export async function userBalance(db: Executor, userId: bigint): Promise<CurrencyBalance[]> {
  const [currencies, accounts] = await Promise.all([loadCurrencies(db), accountsOf(db, userId)]);
  const totals = totalsByCurrency(accounts.filter((account) => account.ledger === 'real'));
  return currencies.filter((currency) => currency.enabled || totals.has(currency.code)).map((currency) => {
    const sums = totals.get(currency.code) ?? zeroTotals();
    return {
      currency: currency.code, scale: currency.scale,
      available: formatAmount(sums.spot, currency.scale), frozen: formatAmount(sums.frozen, currency.scale),
    };
  });
}

/** Totals by kind valued in USDT; a currency without a rate is listed as unpriced and left out. */
export async function userAssets(db: Executor, market: MarketView, userId: bigint, nowMs: number): Promise<UserAssets> {
  const [currencies, assets, accounts] = await Promise.all([loadCurrencies(db), listAssets(db), accountsOf(db, userId)]);
  const usdtScale = assets.find((asset) => asset.code === usdt)?.scale ?? 6;
  const totals = totalsByCurrency(accounts);
  const byKind = zeroTotals();
  const unpriced: string[] = [];
  let total = 0n;
  const walletCurrency = new Map(currencies.map((currency) => [currency.code, currency]));
  const rows = assets.filter((asset) => walletCurrency.get(asset.code)?.enabled || totals.has(asset.code)).map((asset) => {
    const sums = totals.get(asset.code) ?? zeroTotals();
    const currency = walletCurrency.get(asset.code);
    const rate: Rate | undefined = currency
      ? rateOf(currency, market, nowMs)
      : asset.code === usdt ? { units: 1n, precision: 0, source: 'par', timeMs: nowMs } : undefined;
    let value: bigint | null = null;
    if (rate) {
      value = 0n;
      for (const kind of Object.keys(sums) as TotalKind[]) {
        const inUsdt = valueInUsdt(sums[kind], asset.scale, rate, usdtScale);
        byKind[kind] += inUsdt;
        if (kind !== 'demo') value += inUsdt;
      }
      total += value;
    } else if (Object.values(sums).some((amount) => amount !== 0n)) {
      unpriced.push(asset.code);
    }
    const amounts = Object.fromEntries(Object.entries(sums).map(([kind, amount]) => [kind, formatAmount(amount, asset.scale)]));
    return {
      currency: asset.code, scale: asset.scale, amounts: amounts as Record<AssetKind, string>,
      rate: rate ? rateText(rate) : null, valueUsdt: value === null ? null : formatAmount(value, usdtScale),
    };
  });
  const formatted = Object.fromEntries(Object.entries(byKind).map(([kind, amount]) => [kind, formatAmount(amount, usdtScale)]));
  return { totalUsdt: formatAmount(total, usdtScale), byKind: formatted as Record<AssetKind, string>, currencies: rows, unpriced };
}
