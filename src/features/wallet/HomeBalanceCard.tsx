// Home's balance card, shown only to a logged-in user and loaded as a chunk of its own (DESIGN §8
// budget): the total in USDT and in the display currency chosen in the asset centre, converted
// the same way (assetTotals.ts), and the eye that hides amounts here and in the asset centre at
// once. Today's profit or loss is not shown: the assets answer has no start-of-day value to
// compare with, and the card does not guess one.
import { useNavigate } from 'react-router-dom';
import { EyeInvisibleOutline, EyeOutline, RightOutline } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { Amount } from '../../components/Amount.tsx';
import { useCurrencyListQuery, useRateByCurrencyQuery, useUserAssetsQuery } from '../../entities/wallet/walletApi.ts';
import { displayTotalOf, pickDisplayCurrency, setAmountsHidden, storedDisplayCurrency, useAmountsHidden } from './assetTotals.ts';
import { prepareWalletTexts } from './walletTexts.ts';
import './homeBalance.css';

/** Home awaits this before the card shows: its texts. */
export const prepare = prepareWalletTexts;

export default function HomeBalanceCard() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const assets = useUserAssetsQuery();
  const currencies = useCurrencyListQuery();
  const hidden = useAmountsHidden();
  const currencyList = currencies.data ?? [];
  const displayCurrency = pickDisplayCurrency(storedDisplayCurrency(), currencyList.map((currency) => currency.currency));
  const rate = useRateByCurrencyQuery(displayCurrency ?? '', { skip: !displayCurrency || displayCurrency === 'USDT' });
  const displayInfo = currencyList.find((currency) => currency.currency === displayCurrency);
  // Until the first answer the card keeps its place (no jump); without one it says nothing.
  if (!assets.data) return assets.isError ? null : <div className="home-balance-placeholder" aria-hidden="true" />;
  const { totalUsdt } = assets.data;
  const display = displayInfo && displayInfo.currency !== 'USDT' ? displayTotalOf(totalUsdt, displayInfo, rate.data) : undefined;

  return (
    <section className="home-balance" aria-labelledby="home-balance-label" data-testid="home-balance">
      <div className="home-balance-head">
        <h2 id="home-balance-label" className="home-balance-label">{t`Total assets (USDT)`}</h2>
        <button type="button" className="icon-button home-balance-eye" aria-pressed={hidden} data-testid="home-balance-eye"
          aria-label={hidden ? t`Show amounts` : t`Hide amounts`} onClick={() => setAmountsHidden(!hidden)}>
          {hidden ? <EyeInvisibleOutline fontSize={20} /> : <EyeOutline fontSize={20} />}
        </button>
      </div>
      <p className="home-balance-total">
        <Amount value={totalUsdt} asset="USDT" hidden={hidden} data-testid="home-balance-total" />
      </p>
      {display?.converted !== undefined && displayInfo && (
        <p className="home-balance-display">
          ≈ <Amount value={display.converted} asset={displayInfo.currency} scale={display.decimals} withAsset hidden={hidden}
            data-testid="home-balance-display" />
        </p>
      )}
      <button type="button" className="home-balance-link" onClick={() => navigate('/zichanCenter')}>
        {t`Asset centre`} <RightOutline fontSize={12} />
      </button>
    </section>
  );
}
