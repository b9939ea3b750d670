// zichanCenter: the asset centre (issue 9). Total assets in USDT and in a display currency the user
// picks (converted exactly, with bigint, at the rate the server quotes), the totals of each kind
// (spot, position, frozen, virtual), then each currency with its amounts and USDT value; the way
// to deposit, withdraw, the records, the ledger and the settlement info.
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, CheckList, ErrorBlock, Popup, PullToRefresh, Skeleton } from 'antd-mobile';
import { DownOutline, EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import type { AssetKind, CurrencyRate, UserAssets } from '../../api/contract/wallet.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Amount } from '../../components/Amount.tsx';
import { DepositIcon } from '../../components/icons.tsx';
import { formatDecimal } from '../../lib/number.ts';
import { intlOf } from '../../lib/locales.ts';
import { formatEpochMs } from '../../lib/time.ts';
import { useCurrencyListQuery, useRateByCurrencyQuery, useUserAssetsQuery } from '../../entities/wallet/walletApi.ts';
import {
  decimalUnits, decimalsOf, displayTotalOf, pickDisplayCurrency, setAmountsHidden, storeDisplayCurrency, storedDisplayCurrency,
  useAmountsHidden,
} from './assetTotals.ts';
import LiabilityProofCard from './LiabilityProofCard.tsx';
import { KeptAssetsNotice, useKeepAssets, useKeptAssets, type KeptCurrency } from './keptAssets.tsx';
import { useOnline } from '../../components/OfflineBanner.tsx';
import { prepareWalletTexts } from './walletTexts.ts';
import './assetCentre.css';

export const prepare = prepareWalletTexts;

// Shared with the home balance card (assetTotals.ts); exported from here as before.
export { convertFromUsdt, decimalsOf, displayCurrencyKey, hiddenAmount, hideAmountsKey, pickDisplayCurrency } from './assetTotals.ts';

/**
 * The kinds shown: the contract's, and the collateral locked by pledge loans (issue 22), shown once
 * the server's assets carry it (an optional `collateral` beside the other kinds) and zero until then.
 */
type ShownKind = AssetKind | 'collateral' | 'competition';
const kindAmount = (amounts: Record<AssetKind, string>, kind: ShownKind): string =>
  (amounts as Partial<Record<ShownKind, string>>)[kind] ?? '0';

const kindLabels: Record<ShownKind, MessageDescriptor> = {
  spot: msg`Spot balance`,
  position: msg`Position assets`,
  frozen: msg`Frozen assets`,
  demo: msg`Virtual (demo) assets`,
  product: msg`Product holdings`,
  loan: msg`Loans`,
  collateral: msg`Loan collateral`,
  competition: msg`Frozen by competition`,
};
/** Always shown, in this order; products, loans and collateral only when the user has some. */
const summaryKinds: ShownKind[] = ['spot', 'position', 'frozen', 'demo'];
const optionalKinds: ShownKind[] = ['product', 'loan', 'collateral', 'competition'];

const currencyKindLabels: Record<ShownKind, MessageDescriptor> = {
  spot: msg`Available`,
  frozen: msg`Frozen`,
  position: msg`Position`,
  product: msg`Products`,
  loan: msg`Loan`,
  collateral: msg`Collateral`,
  competition: msg`Competition`,
  demo: msg`Virtual`,
};

const rateSourceLabels: Record<CurrencyRate['source'], MessageDescriptor> = {
  feed: msg`market price`,
  operator: msg`rate set by the platform`,
  par: msg`fixed rate`,
};

const isZero = (text: string) => /^-?0*(\.0*)?$/.test(text);

/**
 * Held currencies first, the largest USDT value first (an unvalued one after the valued ones),
 * then the others in the order the platform lists its currencies.
 */
export function orderCurrencies<T extends { currency: string; valueUsdt: string | null; amounts: Record<AssetKind, string> }>(
  rows: readonly T[], listed: readonly string[],
): T[] {
  const held = (row: T) => Object.values(row.amounts).some((amount) => !isZero(amount));
  const value = (row: T) => decimalUnits(row.valueUsdt ?? '') ?? { units: -1n, decimals: 0 };
  const place = (row: T) => (listed.includes(row.currency) ? listed.indexOf(row.currency) : listed.length);
  return [...rows].sort((a, b) => {
    if (held(a) !== held(b)) return held(a) ? -1 : 1;
    if (held(a)) {
      const [x, y] = [value(a), value(b)];
      const scale = Math.max(x.decimals, y.decimals);
      const left = x.units * 10n ** BigInt(scale - x.decimals);
      const right = y.units * 10n ** BigInt(scale - y.decimals);
      if (left !== right) return left > right ? -1 : 1;
    }
    return place(a) - place(b);
  });
}

export default function AssetCentrePage() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const intl = intlOf(i18n.locale);
  const assets = useUserAssetsQuery();
  const currencies = useCurrencyListQuery();
  const online = useOnline();
  // Offline or with the server down, the last figures received on this device, with their age.
  const kept = useKeptAssets();
  // (Not while the first answer is on its way online: the skeleton says that; the copy is for a failure.)
  const keptShown = !assets.data && (assets.isError || !online) ? kept.snapshot : undefined;
  const currencyList: KeptCurrency[] = currencies.data ?? keptShown?.currencies ?? [];
  const offered = currencyList.map((currency) => currency.currency);
  const [chosen, setChosen] = useState<string | null>(storedDisplayCurrency);
  const displayCurrency = pickDisplayCurrency(chosen, offered);
  const rate = useRateByCurrencyQuery(displayCurrency ?? '', { skip: !displayCurrency });
  const keptRate = keptShown?.rate?.currency === displayCurrency ? keptShown?.rate ?? undefined : undefined;
  useKeepAssets({ assets: assets.data, receivedAtMs: assets.fulfilledTimeStamp, currencies: currencies.data, rate: rate.data });
  const hidden = useAmountsHidden();
  const [pickerOpen, setPickerOpen] = useState(false);

  const choose = (code: string) => {
    setChosen(code);
    storeDisplayCurrency(code);
    setPickerOpen(false);
  };
  const refresh = async () => {
    await Promise.all([assets.refetch(), currencies.refetch(), displayCurrency ? rate.refetch() : undefined]);
  };

  const eye = (
    <button type="button" className="icon-button asset-eye" aria-pressed={hidden}
      aria-label={hidden ? t`Show amounts` : t`Hide amounts`} onClick={() => setAmountsHidden(!hidden)}>
      {hidden ? <EyeInvisibleOutline fontSize={22} /> : <EyeOutline fontSize={22} />}
    </button>
  );
  const header = <PageHeader title={t`Asset centre`} fallback="/my" right={eye} />;

  if (!assets.data && !keptShown && (assets.isFetching || !kept.ready)) {
    return (
      <div className="asset-centre">
        {header}
        <div className="asset-skeleton" role="status" aria-label={t`Loading...`} data-testid="asset-skeleton">
          <Skeleton animated className="asset-skeleton-card" />
          <Skeleton.Paragraph lineCount={4} animated />
          <Skeleton.Paragraph lineCount={5} animated />
        </div>
      </div>
    );
  }
  if (!assets.data && !keptShown) {
    return (
      <div className="asset-centre">
        {header}
        <ErrorBlock status="disconnected" title={t`Could not load your assets`} description={t`Check your connection and try again.`}>
          <Button color="primary" onClick={() => void assets.refetch()}>{t`Retry`}</Button>
        </ErrorBlock>
      </div>
    );
  }

  const data = assets.data ?? keptShown!.assets;
  const usdt = (value: string) => <Amount value={value} asset="USDT" hidden={hidden} />;
  const info = new Map(currencyList.map((currency) => [currency.currency, currency]));
  const displayInfo = displayCurrency ? info.get(displayCurrency) : undefined;

  return (
    <div className="asset-centre">
      {header}
      {keptShown && <KeptAssetsNotice savedAtMs={keptShown.savedAtMs} online={online} onRetry={() => void refresh()} />}
      <PullToRefresh onRefresh={refresh} pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`}
        refreshingText={t`Loading...`} completeText={t`Updated`}>
        <section className="asset-total" aria-labelledby="asset-total-label">
          <p id="asset-total-label" className="asset-total-label">{t`Total assets (USDT)`}</p>
          <p className="asset-total-amount" data-testid="asset-total-usdt">{usdt(data.totalUsdt)}</p>
          <DisplayTotal totalUsdt={data.totalUsdt} currency={displayInfo} rate={rate.data ?? keptRate}
            rateFailed={rate.isError} hidden={hidden} intl={intl} onPick={() => setPickerOpen(true)} />
          {data.unpriced.length > 0 && (
            <p className="asset-unpriced-note">{t`Not valued (no rate): ${data.unpriced.join(', ')}`}</p>
          )}
        </section>
        <nav className="asset-actions" aria-label={t`Wallet`}>
          <Button color="primary" onClick={() => navigate('/chongzhi')}>
            <span className="asset-action-inner"><DepositIcon size={18} />{t`Deposit`}</span>
          </Button>
          <Button color="primary" fill="outline" onClick={() => navigate('/tixian')}>{t`Withdraw`}</Button>
        </nav>
        <div className="asset-links">
          <button type="button" className="asset-link" onClick={() => navigate('/chongzhitixianRecord')}>{t`Records`}</button>
          <button type="button" className="asset-link" onClick={() => navigate('/zhangbianRecord')}>{t`Ledger`}</button>
          <button type="button" className="asset-link" onClick={() => navigate('/jiesuanInfo')}>{t`Settlement info`}</button>
        </div>
        <section className="asset-kinds" aria-label={t`Assets by kind (USDT)`}>
          <h2 className="asset-section-title">{t`Assets by kind (USDT)`}</h2>
          <dl className="asset-kind-list">
            {[...summaryKinds, ...optionalKinds.filter((kind) => !isZero(kindAmount(data.byKind, kind)))].map((kind) => (
              <div key={kind} className="asset-kind" data-testid={`asset-kind-${kind}`}>
                <dt>{i18n._(kindLabels[kind])}</dt>
                <dd>{usdt(kindAmount(data.byKind, kind))}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section className="asset-currencies" aria-label={t`Assets by currency`}>
          <h2 className="asset-section-title">{t`Assets by currency`}</h2>
          <ul className="asset-currency-list">
            {orderCurrencies(data.currencies, offered).map((row) => (
              <CurrencyRow key={row.currency} row={row} info={info.get(row.currency)} hidden={hidden} intl={intl}
                unpriced={row.valueUsdt === null || data.unpriced.includes(row.currency)} />
            ))}
          </ul>
        </section>
        {/* The user checks, in this browser, that their balances are inside the published total. */}
        <LiabilityProofCard hidden={hidden} />
      </PullToRefresh>
      <Popup visible={pickerOpen} onMaskClick={() => setPickerOpen(false)} onClose={() => setPickerOpen(false)}
        bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12, maxHeight: '70vh', overflowY: 'auto' }}>
        <h2 className="popup-title">{t`Display currency`}</h2>
        <CheckList value={displayCurrency ? [displayCurrency] : []} onChange={(value) => value[0] && choose(String(value[0]))}>
          {currencyList.map((currency) => (
            <CheckList.Item key={currency.currency} value={currency.currency}>
              <span className="asset-pick-code">{currency.currency}</span> <span className="asset-pick-name">{currency.name}</span>
            </CheckList.Item>
          ))}
        </CheckList>
      </Popup>
    </div>
  );
}

function DisplayTotal({ totalUsdt, currency, rate, rateFailed, hidden, intl, onPick }: {
  totalUsdt: string; currency: KeptCurrency | undefined; rate: CurrencyRate | undefined; rateFailed: boolean; hidden: boolean;
  intl: string; onPick: () => void;
}) {
  const { t, i18n } = useLingui();
  if (!currency) return null;
  const { decimals, usable, converted } = displayTotalOf(totalUsdt, currency, rate);
  const code = currency.currency;
  // Converted at up to 8 decimals, shown at the currency's display precision (the rest on a tap).
  const amount = converted === undefined && !hidden ? '—' : <Amount value={converted} asset={code} scale={decimals} hidden={hidden} />;
  const time = usable ? formatEpochMs(usable.time) : '';
  const source = usable ? i18n._(rateSourceLabels[usable.source]) : '';
  const rateText = usable ? formatDecimal(usable.rate, decimalsOf(usable.rate), intl) : '';
  return (
    <>
      <p className="asset-display">
        <span className="asset-display-amount" data-testid="asset-total-display">≈ {amount}</span>{' '}
        <button type="button" className="asset-currency-button" onClick={onPick} aria-haspopup="dialog"
          aria-label={t`Display currency: ${code}`}>
          {code} <DownOutline fontSize={12} />
        </button>
      </p>
      {usable && (
        <p className="asset-rate" data-testid="asset-rate">{t`1 ${code} = ${rateText} USDT · ${source} · ${time}`}</p>
      )}
      {!usable && rateFailed && <p className="asset-rate">{t`No rate for ${code} at the moment.`}</p>}
    </>
  );
}

function CurrencyRow({ row, info, hidden, intl, unpriced }: {
  row: UserAssets['currencies'][number]; info: KeptCurrency | undefined; hidden: boolean; intl: string; unpriced: boolean;
}) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const code = row.currency;
  const kinds = (Object.keys(currencyKindLabels) as ShownKind[])
    .filter((kind) => kind === 'spot' || kind === 'frozen' || !isZero(kindAmount(row.amounts, kind)));
  const amount = (value: string) => <Amount value={value} asset={code} scale={row.scale} hidden={hidden} />;
  const query = `?currency=${encodeURIComponent(code)}`;
  return (
    <li className="asset-currency" data-testid={`asset-currency-${code}`}>
      <div className="asset-currency-head">
        <span className="asset-currency-name"><strong>{code}</strong>{info && <span className="asset-muted"> {info.name}</span>}</span>
        <span className="asset-currency-value">
          {unpriced || row.valueUsdt === null
            ? <span className="asset-muted">{t`Not valued`}</span>
            : <>≈ <Amount value={row.valueUsdt} asset="USDT" withAsset hidden={hidden} /></>}
        </span>
      </div>
      <dl className="asset-currency-amounts">
        {kinds.map((kind) => (
          <div key={kind} className="asset-currency-amount" data-testid={`asset-${code}-${kind}`}>
            <dt>{i18n._(currencyKindLabels[kind])}</dt>
            <dd>{amount(kindAmount(row.amounts, kind))}</dd>
          </div>
        ))}
      </dl>
      <div className="asset-currency-actions">
        <button type="button" className="link-button" aria-label={t`Deposit ${code}`} onClick={() => navigate(`/chongzhi${query}`)}>
          {t`Deposit`}
        </button>
        <button type="button" className="link-button" aria-label={t`Withdraw ${code}`} onClick={() => navigate(`/tixian${query}`)}>
          {t`Withdraw`}
        </button>
        <button type="button" className="link-button" aria-label={t`Ledger of ${code}`}
          onClick={() => navigate(`/zhangbianRecord${query}`)}>
          {t`Ledger`}
        </button>
      </div>
    </li>
  );
}
