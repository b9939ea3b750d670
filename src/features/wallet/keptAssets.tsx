// The asset centre's last figures, kept on the device so that offline (or with the server down)
// the page shows the last-known balances with their age, as the market shows its prices, instead
// of "Could not load your assets" (issue 19 #6). Like the chart's candles (kline/candleCache.ts)
// this is a database of its own in the device's storage (lib/storage.ts openDeviceStore: memory
// when IndexedDB fails).
//
// What is kept is small and never a token: one snapshot, the assets answer, the currencies'
// codes, names and scales, and the display currency's rate, with the id of the user they belong
// to; another user on the same device never sees them, and a logout (user id gone) hides them.
// A snapshot read back is used only whole and well-formed. Failures are logged, never thrown.
import { useEffect, useState } from 'react';
import { useSelector } from 'react-redux';
import { useLingui } from '@lingui/react/macro';
import type { AssetKind, CurrencyInfo, CurrencyRate, UserAssets } from '../../api/contract/wallet.ts';
import { formatAge } from '../../lib/age.ts';
import { intlOf } from '../../lib/locales.ts';
import { openDeviceStore } from '../../lib/storage.ts';

/** The currencies kept: what the page shows of them (their deposit networks are not needed). */
export type KeptCurrency = Pick<CurrencyInfo, 'currency' | 'name' | 'scale'>;

export interface KeptAssets {
  userId: string;
  /** When the figures were received, ms since the epoch on this device. */
  savedAtMs: number;
  assets: UserAssets;
  currencies: KeptCurrency[];
  rate: CurrencyRate | null;
}

/** Rows kept at most (the platform lists a few dozen currencies). */
export const keptCurrenciesMax = 200;
/** How often the age shown is spelled again. */
const ageRefreshMs = 30_000;

const kinds: AssetKind[] = ['spot', 'frozen', 'position', 'product', 'loan', 'demo'];
const decimalPattern = /^-?\d+(\.\d+)?$/;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isDecimal = (value: unknown): value is string => typeof value === 'string' && decimalPattern.test(value);
const isCode = (value: unknown): value is string => typeof value === 'string' && /^[A-Z0-9]{1,20}$/.test(value);
const isKindAmounts = (value: unknown) => isRecord(value) && kinds.every((kind) => isDecimal(value[kind]));

const isCurrencyAssets = (value: unknown) => isRecord(value) && isCode(value.currency) && Number.isInteger(value.scale)
  && isKindAmounts(value.amounts) && (value.rate === null || isDecimal(value.rate))
  && (value.valueUsdt === null || isDecimal(value.valueUsdt));

function isUserAssets(value: unknown): value is UserAssets {
  return isRecord(value) && isDecimal(value.totalUsdt) && isKindAmounts(value.byKind)
    && Array.isArray(value.currencies) && value.currencies.length <= keptCurrenciesMax && value.currencies.every(isCurrencyAssets)
    && Array.isArray(value.unpriced) && value.unpriced.every(isCode);
}

const isKeptCurrency = (value: unknown): value is KeptCurrency => isRecord(value) && isCode(value.currency)
  && typeof value.name === 'string' && Number.isInteger(value.scale);

const isRate = (value: unknown): value is CurrencyRate => isRecord(value) && isCode(value.currency) && isDecimal(value.rate)
  && ['feed', 'operator', 'par'].includes(value.source as string) && Number.isInteger(value.time);

/** A snapshot read back: whole and well-formed, or nothing (a half-read balance is not shown as a balance). */
export function parseKeptAssets(value: unknown): KeptAssets | undefined {
  if (!isRecord(value) || typeof value.userId !== 'string' || value.userId === '') return undefined;
  if (!Number.isInteger(value.savedAtMs) || (value.savedAtMs as number) <= 0 || !isUserAssets(value.assets)) return undefined;
  if (!Array.isArray(value.currencies) || value.currencies.length > keptCurrenciesMax || !value.currencies.every(isKeptCurrency)) return undefined;
  if (value.rate !== null && !isRate(value.rate)) return undefined;
  return {
    userId: value.userId, savedAtMs: value.savedAtMs as number, assets: value.assets,
    currencies: value.currencies.map(({ currency, name, scale }) => ({ currency, name, scale })), rate: value.rate,
  };
}

const store = openDeviceStore('bourse-assets', 'assets');
const snapshotKey = 'last';

export async function readKeptAssets(): Promise<KeptAssets | undefined> {
  return parseKeptAssets(await store.get(snapshotKey));
}

export async function saveKeptAssets(snapshot: KeptAssets): Promise<void> {
  await store.set(snapshotKey, snapshot);
}

const selectUserId = (state: { user: { userInfo: { id?: string } } }) => state.user.userInfo.id ?? '';

/** The kept snapshot of the user logged in, read once when the page opens (`ready` once read). */
export function useKeptAssets() {
  const userId = useSelector(selectUserId);
  const [read, setRead] = useState<{ snapshot: KeptAssets | undefined } | undefined>();
  useEffect(() => {
    let current = true;
    void readKeptAssets().then((snapshot) => current && setRead({ snapshot }));
    return () => {
      current = false;
    };
  }, []);
  const snapshot = read?.snapshot && userId && read.snapshot.userId === userId ? read.snapshot : undefined;
  return { ready: read !== undefined, snapshot };
}

/** Writes the fresh figures each time the assets arrive (`receivedAtMs`: the answer's time). */
export function useKeepAssets({ assets, receivedAtMs, currencies, rate }: {
  assets?: UserAssets; receivedAtMs?: number; currencies?: CurrencyInfo[]; rate?: CurrencyRate;
}) {
  const userId = useSelector(selectUserId);
  useEffect(() => {
    if (!assets || !receivedAtMs || !userId) return;
    void saveKeptAssets({
      userId, savedAtMs: receivedAtMs, assets: { ...assets, currencies: assets.currencies.slice(0, keptCurrenciesMax) },
      currencies: (currencies ?? []).slice(0, keptCurrenciesMax).map(({ currency, name, scale }) => ({ currency, name, scale })),
      rate: rate ?? null,
    });
  }, [assets, receivedAtMs, currencies, rate, userId]);
}

/** "Offline. Balances updated 5 min ago", with a retry while online (the server failed). */
export function KeptAssetsNotice({ savedAtMs, online, onRetry }: { savedAtMs: number; online: boolean; onRetry: () => void }) {
  const { t, i18n } = useLingui();
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), ageRefreshMs);
    return () => clearInterval(timer);
  }, []);
  const age = formatAge(savedAtMs, nowMs, intlOf(i18n.locale));
  return (
    <p className="asset-kept-note" role="status" data-testid="asset-kept-note" data-saved-at={new Date(savedAtMs).toISOString()}>
      {online ? t`Your assets could not be refreshed. Balances updated ${age}.` : t`Offline. Balances updated ${age}.`}
      {online && <button type="button" className="asset-kept-retry" onClick={onRetry}>{t`Retry`}</button>}
    </p>
  );
}
