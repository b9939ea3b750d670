// tixian, withdrawal (spec §2, §7 /finance/appWithdrawal/apply): a currency (`?currency=USDT`),
// one of the user's bound destinations for it (its addresses of that currency, or a bank card
// where the currency pays out to banks), the amount against the available balance with "All",
// and live, exact figures: the network's fee on top, the total that leaves the balance, what
// arrives. Sending opens a confirmation that repeats them and asks for the withdrawal password;
// the request then lands on the result page. Without a destination or a password the page says
// which to set and links to settlement info; every refusal shows where it belongs.
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, ErrorBlock, Form, Input, Popup, PullToRefresh, Selector, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { formatAmount } from '../../api/contract/amounts.ts';
import type { CurrencyInfo, CurrencyNetwork } from '../../api/contract/wallet.ts';
import type { Destination } from '../../api/contract/withdrawals.ts';
import type { ApiError } from '../../api/baseQuery.ts';
import { translateError } from '../../api/errorMessages.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { PasswordInput } from '../../components/form/PasswordInput.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { formatAssetAmount } from '../../lib/assetPrecision.ts';
import { Amount } from '../../components/Amount.tsx';
import { intlOf } from '../../lib/locales.ts';
import { useGetMyUserInfoQuery } from '../../entities/session/authApi.ts';
import { bankNetwork, DestinationLabel } from './DestinationForm.tsx';
import { atomicOf, maxWithdrawalText, quoteWithdrawal, type Quote, type QuoteRefusal } from './withdrawMath.ts';
import {
  useApplyWithdrawalMutation, useCurrencyListQuery, useDestinationsQuery, useUserBalanceQuery,
} from '../../entities/wallet/walletApi.ts';
import { prepareWalletTexts } from './walletTexts.ts';
import { prepareAccountTexts } from '../../lib/catalogs.ts';
import { useGoogleAuthStateQuery } from '../../entities/session/twoFactorApi.ts';
import { SecondFactorField } from '../../entities/session/SecondFactorFields.tsx';
import './settlement.css';
import './withdraw.css';

// The second factor's field (entities/session/SecondFactorFields.tsx) brings its texts in the account catalog.
export const prepare = async () => { await Promise.all([prepareWalletTexts(), prepareAccountTexts()]); };

/** Where the server's refusal of a withdrawal belongs on this page. */
export type WithdrawErrorPlace = 'password' | 'amount' | 'destination' | 'setup-password' | 'setup-kyc' | 'form';

const placeByCode: Record<string, WithdrawErrorPlace> = {
  withdraw_password_invalid: 'password',
  too_many_attempts: 'password',
  // A withdrawal password equal to the login password moves nothing (issue 19): say so under it.
  withdraw_password_same_as_login: 'password',
  withdraw_password_required: 'setup-password',
  // Above the daily limit of the user's verification level (issue 11): the page links to verification.
  kyc_level_required: 'setup-kyc',
  amount_empty: 'amount', amount_negative: 'amount', amount_exponent: 'amount', amount_malformed: 'amount',
  amount_too_many_decimals: 'amount', amount_too_large: 'amount', amount_not_positive: 'amount',
  amount_below_minimum: 'amount', balance_insufficient: 'amount',
  destination_required: 'destination', destination_not_found: 'destination', destination_currency_mismatch: 'destination',
  withdrawal_unavailable: 'destination', network_unknown: 'destination',
};

export function withdrawErrorPlace(error: unknown): WithdrawErrorPlace {
  const failure = error as Partial<ApiError> | undefined;
  return (failure?.kind === 'api' && failure.error && placeByCode[failure.error]) || 'form';
}

/** Where a refusal that asks the user to set something up links to. */
export const setupLink = { destination: '/jiesuanInfo?add=chain', password: '/jiesuanInfo?panel=password', kyc: '/shenfenRenzheng' } as const;

const amountFieldsByCode: FieldsByCode = Object.fromEntries(
  Object.entries(placeByCode).filter(([, place]) => place === 'amount').map(([code]) => [code, 'amount']),
);
const passwordFieldsByCode: FieldsByCode = {
  withdraw_password_invalid: 'password', too_many_attempts: 'password', withdraw_password_same_as_login: 'password',
  google_code_required: 'googleCode', google_code_invalid: 'googleCode',
};

/** A typed amount as the parser reads it: "12,5" (a decimal comma keyboard) is "12.5". */
export const normaliseAmountText = (text: string) => {
  const trimmed = text.replace(/\s/g, '');
  return trimmed.includes(',') && !trimmed.includes('.') && trimmed.split(',').length === 2 ? trimmed.replace(',', '.') : trimmed;
};

/** The network whose terms apply to a destination in a currency: its chain, or BANK for a card. */
export function networkFor(currency: CurrencyInfo | undefined, destination: Destination | undefined): CurrencyNetwork | undefined {
  if (!currency || !destination) return undefined;
  const code = destination.type === 'chain' ? destination.network : bankNetwork;
  return currency.networks.find((network) => network.network === code);
}

interface Option { destination: Destination; usable: boolean }

/** The user's destinations a currency can go to: its own addresses, then bank cards; each usable or not. */
export function destinationOptions(currency: CurrencyInfo | undefined, destinations: Destination[]): Option[] {
  if (!currency) return [];
  const usable = (destination: Destination) => networkFor(currency, destination)?.withdrawalEnabled === true;
  const chain = destinations.filter((item) => item.type === 'chain' && item.currency === currency.currency);
  const bank = destinations.filter((item) => item.type === 'bank');
  return [...chain, ...bank].map((destination) => ({ destination, usable: usable(destination) }));
}

/** The amount field: the input, the currency's code and "All"; a form control. */
function AmountInput({ value, onChange, id, unit, placeholder, onAll, allDisabled }: {
  value?: string; onChange?: (value: string) => void; id?: string; unit: string; placeholder: string; onAll: () => void; allDisabled: boolean;
}) {
  const { t } = useLingui();
  return (
    <div className="amount-input">
      <Input id={id} value={value} onChange={onChange} placeholder={placeholder} inputMode="decimal" autoComplete="off"
        clearable maxLength={60} aria-labelledby="withdraw-amount-label" />
      <span className="amount-unit" aria-hidden="true">{unit}</span>
      <button type="button" className="amount-all" disabled={allDisabled} onClick={onAll}
        aria-label={t`Withdraw all that is available`}>{t`All`}</button>
    </div>
  );
}

export default function WithdrawPage() {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const currencies = useCurrencyListQuery();
  const balances = useUserBalanceQuery();
  const destinations = useDestinationsQuery();
  const user = useGetMyUserInfoQuery();
  // With Google Authenticator bound, a withdrawal also needs a code from the app.
  const googleState = useGoogleAuthStateQuery({ quiet: true }).data?.bound === true;
  // The server's google_code_required shows the field even when the state could not be read.
  const [codeAsked, setCodeAsked] = useState(false);
  const googleBound = googleState || codeAsked;
  const [apply, applying] = useApplyWithdrawalMutation();
  const [form] = Form.useForm<{ amount?: string }>();
  const [passwordForm] = Form.useForm<{ password?: string }>();
  const failure = useFormFailure(form, amountFieldsByCode);
  const passwordFailure = useFormFailure(passwordForm, passwordFieldsByCode);
  const [chosenId, setChosenId] = useState<string>();
  const [confirming, setConfirming] = useState<Quote>();
  /** A refusal that asks to bind a destination or set a password: shown with its link. */
  const [setupNeeded, setSetupNeeded] = useState<{ message: string; to: string }>();
  const amountText = normaliseAmountText((Form.useWatch('amount', form) as string | undefined) ?? '');

  const withdrawable = useMemo(() => (currencies.data ?? [])
    .filter((currency) => currency.networks.some((network) => network.withdrawalEnabled)), [currencies.data]);
  const asked = params.get('currency')?.toUpperCase();
  const currency = withdrawable.find((item) => item.currency === asked) ?? withdrawable[0];
  const options = destinationOptions(currency, destinations.data ?? []);
  const chosen = options.find((option) => option.usable && option.destination.id === chosenId)
    ?? options.find((option) => option.usable);
  const destination = chosen?.destination;
  const network = networkFor(currency, destination);
  const scale = currency?.scale ?? 0;
  const balance = balances.data?.find((item) => item.currency === currency?.currency);
  const available = atomicOf(balance?.available, scale);
  const fee = atomicOf(network?.withdrawalFee, scale);
  const minimum = atomicOf(network?.withdrawalMin, scale);
  const quote = currency ? quoteWithdrawal(amountText, { scale, available, fee, minimum }) : undefined;
  const figures = quote?.ok ? quote : quote?.quote;
  const code = currency?.currency ?? '';
  // Every amount of the page at the currency's display precision, with the significant digits of
  // what the user moves (issue 19 #7): "Minimum 1.00" beside "Available 500.00", as the result says.
  const shown = (text: string | undefined) => formatAssetAmount(text ?? '0', code, intl, { scale, exact: true });
  const show = (atomic: bigint) => shown(formatAmount(atomic, scale));
  const figure = (text: string | undefined) => <Amount value={text ?? '0'} asset={code} scale={scale} exact withAsset />;
  const figureOf = (atomic: bigint) => figure(formatAmount(atomic, scale));
  const bankUnavailable = options.some((option) => option.destination.type === 'bank' && !option.usable);
  // Unknown (the user info did not load) counts as set: the server then says if it is not, with the link.
  const hasPassword = user.data?.hasWithdrawPassword !== false;

  const minimumText = network ? shown(network.withdrawalMin) : '';
  const refusalText = (refusal: QuoteRefusal, refused?: Quote): string => {
    if (refusal === 'amount_below_minimum') {
      const min = show(minimum);
      return t`The minimum withdrawal is ${min} ${code}.`;
    }
    if (refusal === 'balance_insufficient') {
      const total = refused ? show(refused.total) : '';
      return t`The balance does not cover ${total} ${code} (the amount and the fee).`;
    }
    return translateError(refusal) ?? t`Please enter a valid amount.`;
  };

  const chooseCurrency = (next: string) => {
    const changed = new URLSearchParams(params);
    changed.set('currency', next);
    setParams(changed, { replace: true });
    setChosenId(undefined);
    failure.clear();
    setSetupNeeded(undefined);
  };

  const send = async () => {
    if (!currency || !destination || !confirming) return;
    passwordFailure.clear();
    const password = (passwordForm.getFieldValue('password') as string | undefined) ?? '';
    const googleCode = googleBound ? ((passwordForm.getFieldValue('googleCode') as string | undefined) ?? '').trim() : undefined;
    const result = await apply({ currency: currency.currency, amount: formatAmount(confirming.amount, scale), withdrawalInfoId: destination.id, withdrawPassword: password, googleCode });
    if (result.data) {
      setConfirming(undefined);
      navigate(`/chongzhitixianResult?kind=withdrawal&id=${encodeURIComponent(result.data.id)}`);
      return;
    }
    const place = withdrawErrorPlace(result.error);
    if ((result.error as { error?: string }).error === 'google_code_required') setCodeAsked(true);
    if (place === 'password' || place === 'form') {
      passwordFailure.show(result.error);
      return;
    }
    setConfirming(undefined);
    if (place === 'amount') {
      failure.show(result.error);
    } else {
      const message = place === 'setup-kyc'
        ? t`This withdrawal is above the daily limit of your verification level. Verify your identity to raise it.`
        : (result.error as Partial<ApiError>).message ?? '';
      setSetupNeeded({ message, to: place === 'setup-password' ? setupLink.password : place === 'setup-kyc' ? setupLink.kyc : setupLink.destination });
      void Promise.all([destinations.refetch(), user.refetch(), currencies.refetch()]);
    }
  };

  const loading = currencies.isLoading || balances.isLoading || destinations.isLoading || user.isLoading;
  const failed = !loading && (!currencies.data || !balances.data || !destinations.data);
  const header = (
    <PageHeader title={t`Withdrawal`} fallback="/zichanCenter"
      right={(
        <Link className="icon-button header-records" to="/chongzhitixianRecord" aria-label={t`Records`} title={t`Records`}>
          <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round"
            strokeLinejoin="round" aria-hidden="true" focusable="false"><path d="M7 3h10l3 3v15H4V3z" /><path d="M8 9h8M8 13h8M8 17h5" /></svg>
        </Link>
      )} />
  );
  if (loading) {
    return <div className="withdraw-page">{header}
      <div className="withdraw-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Title animated /><Skeleton.Paragraph lineCount={6} animated /></div>
    </div>;
  }
  if (failed) {
    return <div className="withdraw-page">{header}
      <ErrorBlock status="disconnected" title={t`Could not load your wallet`} description={t`Check your connection and try again.`}>
        <Button color="primary" onClick={() => void Promise.all([currencies.refetch(), balances.refetch(), destinations.refetch()])}>{t`Retry`}</Button>
      </ErrorBlock>
    </div>;
  }
  if (!currency) {
    return <div className="withdraw-page">{header}<p className="empty-note">{t`Withdrawals are not available at the moment.`}</p></div>;
  }

  return (
    <div className="withdraw-page">
      {header}
      <PullToRefresh onRefresh={async () => { await Promise.all([balances.refetch(), destinations.refetch(), currencies.refetch(), user.refetch()]); }}
        pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`} refreshingText={t`Loading...`} completeText={t`Updated`}>
        <section className="withdraw-card" aria-labelledby="withdraw-currency">
          <h2 id="withdraw-currency" className="withdraw-label">{t`Currency`}</h2>
          <div role="radiogroup" aria-labelledby="withdraw-currency">
            <Selector showCheckMark={false} value={[currency.currency]} columns={4}
              options={withdrawable.map((item) => ({ label: item.currency, value: item.currency }))}
              onChange={(value) => { if (value[0]) chooseCurrency(value[0]); }} />
          </div>
        </section>

        <section className="withdraw-card" aria-labelledby="withdraw-to">
          <div className="withdraw-row-head">
            <h2 id="withdraw-to" className="withdraw-label">{t`Withdraw to`}</h2>
            <Link className="link-button" to={`/jiesuanInfo?add=chain&currency=${code}`}>{t`Add`}</Link>
          </div>
          {options.length === 0 ? (
            <div className="withdraw-prompt" role="note">
              <p>{t`You have no ${code} address or bank card bound yet. Bind one to withdraw.`}</p>
              <Link className="prompt-link" to={`/jiesuanInfo?add=chain&currency=${code}`}>{t`Bind a ${code} address`}</Link>
            </div>
          ) : (
            <div role="radiogroup" aria-labelledby="withdraw-to" className="destination-choices">
              {options.map(({ destination: item, usable }) => (
                <button key={item.id} type="button" role="radio" aria-checked={item.id === destination?.id} disabled={!usable}
                  className={`destination-choice${item.id === destination?.id ? ' chosen' : ''}`}
                  onClick={() => {
                    setChosenId(item.id);
                    failure.clear();
                  }}>
                  <DestinationLabel destination={item} />
                  {!usable && <span className="destination-off">{item.type === 'bank' ? t`Bank payouts of ${code} are not offered.` : t`Withdrawals on this network are paused.`}</span>}
                </button>
              ))}
            </div>
          )}
          {options.length > 0 && !destination && (
            <div className="withdraw-prompt" role="note">
              <p>{bankUnavailable ? t`Bank payouts of ${code} are not offered. Bind a ${code} address to withdraw.` : t`None of these can take ${code} at the moment.`}</p>
              <Link className="prompt-link" to={`/jiesuanInfo?add=chain&currency=${code}`}>{t`Bind a ${code} address`}</Link>
            </div>
          )}
          {setupNeeded && (
            <div className="withdraw-prompt" role="alert">
              <p>{setupNeeded.message}</p>
              <Link className="prompt-link" to={setupNeeded.to}>
                {setupNeeded.to === setupLink.password ? t`Set withdrawal password` : setupNeeded.to === setupLink.kyc ? t`Verify your identity` : t`Bind a ${code} address`}
              </Link>
            </div>
          )}
        </section>

        {user.data && !hasPassword && (
          <div className="withdraw-prompt password-prompt" role="note">
            <p>{t`Withdrawals need a withdrawal password. Set one first.`}</p>
            <Link className="prompt-link" to={setupLink.password}>{t`Set withdrawal password`}</Link>
          </div>
        )}

        <section className="withdraw-card" aria-labelledby="withdraw-amount-label">
          <Form form={form} layout="vertical" requiredMarkStyle="none"
            onValuesChange={(changed: Record<string, unknown>) => {
              failure.onValuesChange(changed);
              if (failure.placed) failure.clear();
            }}
            onFinish={(values: { amount?: string }) => {
              failure.clear();
              setSetupNeeded(undefined);
              const checked = quoteWithdrawal(normaliseAmountText(values.amount ?? ''), { scale, available, fee, minimum });
              if (!checked.ok) return;
              passwordForm.resetFields();
              passwordFailure.clear();
              setConfirming(checked);
            }}
            footer={<>
              <Button block type="submit" color="primary" size="large" disabled={!destination || !hasPassword}>{t`Withdraw`}</Button>
              <FormError {...failure.placed} />
            </>}>
            <Form.Item name="amount" label={<span id="withdraw-amount-label">{t`Amount`}</span>} validateTrigger={['onChange', 'onSubmit']}
              normalize={(value: string | undefined) => normaliseAmountText(value ?? '')}
              rules={[{
                // On sending: the amount's form, zero and the minimum (a minimum checked as it is
                // typed would flag "5" on the way to "50").
                validateTrigger: 'onSubmit',
                validator: async (_rule, value?: string) => {
                  const checked = quoteWithdrawal(normaliseAmountText(value ?? ''), { scale, available, fee, minimum });
                  if (!checked.ok && checked.refusal !== 'balance_insufficient') throw new Error(refusalText(checked.refusal, checked.quote));
                },
              }, {
                // As it is typed (issue 19), like the swap page: more than the balance only grows with more digits.
                validateTrigger: 'onChange',
                validator: async (_rule, value?: string) => {
                  const checked = quoteWithdrawal(normaliseAmountText(value ?? ''), { scale, available, fee, minimum });
                  if (!checked.ok && checked.refusal === 'balance_insufficient') throw new Error(refusalText(checked.refusal, checked.quote));
                },
              }]}
              description={<span className="withdraw-available">{t`Available`}: <b>{figure(balance?.available)}</b></span>}>
              <AmountInput unit={code} placeholder={network ? t`Minimum ${minimumText}` : t`Amount`} allDisabled={!network}
                onAll={() => {
                  failure.clear();
                  form.setFields([{ name: 'amount', value: maxWithdrawalText(available, fee, scale), errors: [] }]);
                }} />
            </Form.Item>
            <div className="withdraw-summary">
              <dl className="withdraw-figures" aria-live="polite">
                <div><dt>{t`Network`}</dt><dd>{network?.network === bankNetwork ? t`Bank transfer` : network?.network ?? '—'}</dd></div>
                <div><dt>{t`Minimum`}</dt><dd>{network ? figure(network.withdrawalMin) : '—'}</dd></div>
                <div><dt>{t`Fee`}</dt><dd data-testid="withdraw-fee">{network ? figureOf(fee) : '—'}</dd></div>
                <div><dt>{t`Total debited`}</dt><dd data-testid="withdraw-total">{figures ? figureOf(figures.total) : '—'}</dd></div>
                <div className="arrival"><dt>{t`You receive`}</dt><dd data-testid="withdraw-arrival">{figures ? figureOf(figures.arrival) : '—'}</dd></div>
              </dl>
              <p className="withdraw-note">{t`The fee is taken on top of the amount. The amount and the fee are held until the withdrawal is reviewed and paid out.`}</p>
            </div>
          </Form>
        </section>
      </PullToRefresh>

      <Popup visible={confirming !== undefined} onMaskClick={() => setConfirming(undefined)} onClose={() => setConfirming(undefined)}
        position="bottom" bodyClassName="settlement-sheet" destroyOnClose>
        {confirming && destination && (
          <div className="withdraw-confirm" role="dialog" aria-labelledby="withdraw-confirm-title">
            <div className="sheet-head">
              <h2 id="withdraw-confirm-title" className="popup-title">{t`Confirm withdrawal`}</h2>
              <button type="button" className="sheet-close" aria-label={t`Close`} onClick={() => setConfirming(undefined)}>×</button>
            </div>
            <dl className="withdraw-figures confirm">
              <div><dt>{t`Currency`}</dt><dd>{code}</dd></div>
              <div className="destination-row"><dt>{t`Withdraw to`}</dt><dd><DestinationLabel destination={destination} full /></dd></div>
              <div><dt>{t`Network`}</dt><dd>{network?.network === bankNetwork ? t`Bank transfer` : network?.network}</dd></div>
              <div><dt>{t`Amount`}</dt><dd>{figureOf(confirming.amount)}</dd></div>
              <div><dt>{t`Fee`}</dt><dd>{figureOf(confirming.fee)}</dd></div>
              <div className="arrival"><dt>{t`Total debited`}</dt><dd data-testid="confirm-total">{figureOf(confirming.total)}</dd></div>
              <div><dt>{t`You receive`}</dt><dd>{figureOf(confirming.arrival)}</dd></div>
            </dl>
            <Form form={passwordForm} layout="vertical" requiredMarkStyle="none" onValuesChange={passwordFailure.onValuesChange}
              onFinish={send}
              footer={<>
                <Button block type="submit" color="primary" size="large" loading={applying.isLoading}>{t`Confirm withdrawal`}</Button>
                <FormError {...passwordFailure.placed} />
              </>}>
              <Form.Item name="password" label={t`Withdrawal password`} rules={[{ required: true, message: t`Please enter your withdrawal password.` }]}>
                <PasswordInput placeholder={t`Withdrawal password`} autoComplete="off" maxLength={64} autoFocus />
              </Form.Item>
              {googleBound ? (
                <SecondFactorField useRecovery={false} />
              ) : null}
            </Form>
          </div>
        )}
      </Popup>
    </div>
  );
}
