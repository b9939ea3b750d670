// Buying a product by debit from spot (arbitrage, quant, bond): the amount with "All", its exact
// expected return as it is typed (investMath.ts, bigint), the refusals the server would give shown
// before sending, then a confirmation sheet that repeats the figures. The sheet makes one
// clientOrderId; a retry from the same sheet (after a network failure) sends it again, so the
// purchase can never happen twice. Success lands on taoliOk with the order.
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Input, Popup } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { Product } from '../../api/contract/products.ts';
import type { ApiError } from '../../api/baseQuery.ts';
import { failureText, translateError } from '../../api/errorMessages.ts';
import { formatAmount } from '../../api/contract/amounts.ts';
import { Amount } from '../../components/Amount.tsx';
import { formatAssetAmount } from '../../lib/assetPrecision.ts';
import { intlOf } from '../../lib/locales.ts';
import { useUserBalanceQuery } from '../../entities/wallet/walletApi.ts';
import { useDebitBuyMutation } from './investApi.ts';
import {
  checkPurchase, newClientOrderId, normaliseAmountText, plainText, termsOf, type PurchaseCheck, type PurchaseQuote, type PurchaseRefusal,
} from '../../entities/invest/investMath.ts';
import { Figure, useRateText } from '../../entities/invest/parts.tsx';

/** Where a refusal from the server leads, besides its message: the VIP page or verification. */
export function refusalLink(error: unknown): 'vip' | 'kyc' | undefined {
  const code = (error as Partial<ApiError> | undefined)?.kind === 'api' ? (error as { error?: string }).error : undefined;
  if (code === 'product_level_required') return 'vip';
  if (code === 'product_kyc_required') return 'kyc';
  return undefined;
}

interface Confirming { quote: PurchaseQuote; clientOrderId: string }

export function BuyForm({ product, onBought }: { product: Product; onBought?: (orderId: string) => void }) {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const navigate = useNavigate();
  const inputId = useId();
  const balances = useUserBalanceQuery();
  const [buy, buying] = useDebitBuyMutation();
  const [text, setText] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [confirming, setConfirming] = useState<Confirming>();
  const [sheetFailure, setSheetFailure] = useState<{ message: string; link?: 'vip' | 'kyc' }>();
  const asset = product.asset;
  const balance = balances.data?.find((row) => row.currency === asset);
  const terms = termsOf(product, balance ? termsOfBalance(balance.available, termsOf(product).scale) : undefined);
  const scale = terms.scale;
  const amountText = normaliseAmountText(text);
  const check: PurchaseCheck | undefined = amountText ? checkPurchase(amountText, terms) : undefined;
  const quote = check?.ok ? check : check?.quote;
  const rate = useRateText();
  const shown = (atomic: bigint) => formatAssetAmount(formatAmount(atomic, scale), asset, intl, { scale, exact: true });
  const figure = (atomic: bigint) => <Amount value={formatAmount(atomic, scale)} asset={asset} scale={scale} exact withAsset />;
  const open = product.status === 'open';
  const minimumText = shown(terms.minimum);

  const refusalText = (refusal: PurchaseRefusal): string => {
    if (refusal === 'amount_below_product_minimum') {
      const minimum = shown(terms.minimum);
      return t`The minimum purchase is ${minimum} ${asset}.`;
    }
    if (refusal === 'amount_above_product_maximum') {
      const maximum = shown(terms.maximum);
      return t`The maximum purchase is ${maximum} ${asset}.`;
    }
    if (refusal === 'amount_above_remaining') {
      const remaining = shown(terms.remaining ?? 0n);
      return t`Only ${remaining} ${asset} is left to buy.`;
    }
    if (refusal === 'balance_insufficient') return t`Your available ${asset} does not cover this amount.`;
    return translateError(refusal) ?? t`Please enter a valid amount.`;
  };
  // The balance shows as it is typed (more digits only make it worse); the rest on "Buy", so the
  // minimum does not flag "5" on the way to "50".
  const inlineRefusal = check && !check.ok && (submitted || check.refusal === 'balance_insufficient' || check.refusal === 'amount_too_many_decimals')
    ? refusalText(check.refusal) : undefined;

  const start = () => {
    setSubmitted(true);
    const checked = checkPurchase(normaliseAmountText(text), terms);
    if (!checked.ok) return;
    setSheetFailure(undefined);
    setConfirming({ quote: checked, clientOrderId: newClientOrderId() });
  };

  const send = async () => {
    if (!confirming) return;
    setSheetFailure(undefined);
    const result = await buy({ productId: product.id, amount: formatAmount(confirming.quote.amount, scale), clientOrderId: confirming.clientOrderId });
    if (result.data) {
      setConfirming(undefined);
      if (onBought) onBought(result.data.id);
      else navigate(`/taoliOk?id=${encodeURIComponent(result.data.id)}`);
      return;
    }
    const code = (result.error as Partial<ApiError>).kind === 'api' ? (result.error as { error?: string }).error : undefined;
    const message = code === 'balance_insufficient' ? refusalText('balance_insufficient') : failureText(result.error);
    // Kept open with the same clientOrderId: a retry after a lost answer cannot buy twice.
    setSheetFailure({ message, link: refusalLink(result.error) });
    if (code) void balances.refetch();
  };

  const days = product.days;
  return (
    <section className="invest-card buy-card" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className="invest-card-title">{product.type === 'bond' ? t`Subscribe` : t`Buy`}</h2>
      <label htmlFor={inputId} className="buy-label">{t`Amount (${asset})`}</label>
      <div className="amount-input">
        <Input id={inputId} value={text} onChange={(value) => { setText(value); setSubmitted(false); }} inputMode="decimal" autoComplete="off"
          clearable maxLength={60} placeholder={t`Minimum ${minimumText}`} disabled={!open}
          aria-invalid={inlineRefusal ? true : undefined} aria-describedby={`${inputId}-available`} />
        <span className="amount-unit" aria-hidden="true">{asset}</span>
        <button type="button" className="amount-all" disabled={!open || !balance}
          onClick={() => {
            const most = [terms.available ?? 0n, terms.maximum > 0n ? terms.maximum : undefined, terms.remaining]
              .filter((value): value is bigint => value !== undefined).reduce((a, b) => (a < b ? a : b));
            setText(plainText(most, scale));
            setSubmitted(false);
          }} aria-label={t`Use the most I can buy`}>{t`All`}</button>
      </div>
      {inlineRefusal && <p className="buy-refusal" role="alert">{inlineRefusal}</p>}
      <p id={`${inputId}-available`} className="buy-available">
        {t`Available`}: {balance ? <Amount value={balance.available} asset={asset} withAsset /> : '—'}
      </p>
      <dl className="invest-figures" aria-live="polite">
        <Figure label={t`Daily rate`}>{rate(product.dailyRate)}</Figure>
        <Figure label={t`Income per day`} testId="buy-daily">{quote ? figure(quote.daily) : '—'}</Figure>
        <Figure label={t`Expected return over ${days} days`} testId="buy-expected" strong>{quote ? figure(quote.expected) : '—'}</Figure>
        <Figure label={t`Principal and return at the end`} testId="buy-total">{quote ? figure(quote.total) : '—'}</Figure>
      </dl>
      <p className="buy-note">{t`The return is fixed when you buy: amount × daily rate × days, rounded down. The principal comes back at the end of the term.`}</p>
      <Button block color="primary" size="large" disabled={!open} onClick={start}>{product.type === 'bond' ? t`Subscribe` : t`Buy`}</Button>

      <Popup visible={confirming !== undefined} onMaskClick={() => setConfirming(undefined)} onClose={() => setConfirming(undefined)}
        position="bottom" bodyClassName="invest-sheet" destroyOnClose>
        {confirming && (
          <div role="dialog" aria-labelledby={`${inputId}-confirm`} className="invest-confirm">
            <div className="sheet-head">
              <h2 id={`${inputId}-confirm`} className="popup-title">{t`Confirm purchase`}</h2>
              <button type="button" className="sheet-close" aria-label={t`Close`} onClick={() => setConfirming(undefined)}>×</button>
            </div>
            <dl className="invest-figures">
              <Figure label={t`Product`}>{product.name}</Figure>
              <Figure label={t`Amount`} testId="confirm-amount">{figure(confirming.quote.amount)}</Figure>
              <Figure label={t`Term`}>{t`${days} days`}</Figure>
              <Figure label={t`Daily rate`}>{rate(product.dailyRate)}</Figure>
              <Figure label={t`Expected return`} testId="confirm-expected" strong>{figure(confirming.quote.expected)}</Figure>
            </dl>
            <p className="buy-note">{t`The amount leaves your spot balance now. A fixed rate paid by the platform from its reserve; not a trading result.`}</p>
            {sheetFailure && (
              <div className="buy-refusal" role="alert">
                <p>{sheetFailure.message}</p>
                {sheetFailure.link === 'vip' && <Link to="/vipLevel">{t`See VIP levels`}</Link>}
                {sheetFailure.link === 'kyc' && <Link to="/shenfenRenzheng">{t`Verify your identity`}</Link>}
              </div>
            )}
            <Button block color="primary" size="large" loading={buying.isLoading} onClick={() => void send()}>{t`Confirm purchase`}</Button>
          </div>
        )}
      </Popup>
    </section>
  );
}

/** The spot balance as atomic units of the product's scale (a balance has the asset's scale). */
function termsOfBalance(available: string, scale: number): bigint {
  const [whole = '0', fraction = ''] = available.split('.');
  const digits = `${whole}${fraction.slice(0, scale).padEnd(scale, '0')}`;
  return /^[0-9]+$/.test(digits) ? BigInt(digits) : 0n;
}
