// chongzhi: deposit (spec §2, §3; issue 9). The user picks a currency and a network (those open to
// deposits), reads the platform's address (copy button and QR code), sends the coins from their
// own wallet, then tells us: the amount (checked here exactly as the server checks it: the
// currency's scale, the network's minimum, in bigint atomic units), the transaction hash if they
// have it, and a photo of the transfer, made small in the browser and uploaded with its progress
// shown. A confirmation sums it up before the request goes; the result page follows it.
// The choice of currency and network lives in the address (?currency=USDT&network=TRC20), so a
// link from elsewhere (the asset centre's per-currency Deposit) opens the right address.
import { useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, ErrorBlock, Form, Input, Skeleton } from 'antd-mobile';
import { BillOutline, CameraOutline, CloseCircleFill, PictureOutline } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { parseAmount } from '../../api/contract/amounts.ts';
import type { ErrorCode } from '../../api/contract/common.ts';
import type { CurrencyInfo, CurrencyNetwork } from '../../api/contract/wallet.ts';
import { failureText, translateError } from '../../api/errorMessages.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { confirmDialog } from '../../components/feedback.tsx';
import { FormError } from '../../components/form/FormError.tsx';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { intlOf } from '../../lib/locales.ts';
import { formatAssetAmount } from '../../lib/assetPrecision.ts';
import { Amount } from '../../components/Amount.tsx';
import { AddressQr } from '../../components/AddressQr.tsx';
import { useUploadField } from '../../components/useUploadField.ts';
import { useApplyRechargeMutation, useCurrencyListQuery, useDepositAddressQuery } from '../../entities/wallet/walletApi.ts';
import { prepareWalletTexts } from './walletTexts.ts';
import type { ResultState } from './ResultPage.tsx';
import './deposit.css';

export const prepare = prepareWalletTexts;

/** Where the deposit records are. */
export const depositRecordsPath = '/chongzhitixianRecord?tab=deposit';
export const depositResultPath = (id: string) => `/chongzhitixianResult?kind=deposit&id=${encodeURIComponent(id)}`;

// ─── Pure parts (tested in test/web/deposit.test.tsx) ────────────────────────────────────────

/** Each currency with only the networks that take deposits now; currencies left with none are dropped. */
export function depositableCurrencies(list: CurrencyInfo[]): CurrencyInfo[] {
  return list
    .map((currency) => ({ ...currency, networks: currency.networks.filter((network) => network.depositEnabled) }))
    .filter((currency) => currency.networks.length > 0);
}

/** The currency and network the address asks for when they take deposits, else the first ones that do. */
export function chooseDeposit(list: CurrencyInfo[], currencyCode: string | null, networkCode: string | null):
  { currency: CurrencyInfo; network: CurrencyNetwork } | undefined {
  const currency = list.find((entry) => entry.currency === currencyCode?.toUpperCase()) ?? list[0];
  if (!currency) return undefined;
  const network = currency.networks.find((entry) => entry.network === networkCode?.toUpperCase()) ?? currency.networks[0];
  return { currency, network };
}

/** The decimal mark of a language: "." in English, "," in Spanish or Vietnamese. */
export const decimalMarkOf = (intl: string) =>
  new Intl.NumberFormat(intl).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';

/**
 * The amount as the server reads it: spaces around it dropped, and in a language that writes a
 * decimal comma (what a Spanish or Vietnamese phone's decimal keyboard types) one comma read as
 * the point. In other languages a comma is left for the server's rule to refuse: "1,000" there
 * means a thousand, and reading it as one would be a surprise confirmed in a hurry.
 */
export function normalizeAmount(input: string, decimalMark = '.'): string {
  const text = input.trim();
  return decimalMark === ',' && /^[0-9]*,[0-9]*$/.test(text) ? text.replace(',', '.') : text;
}

export type AmountCheck = { ok: true; text: string; atomic: bigint } | { ok: false; code: ErrorCode };

/** The typed amount against the currency's scale and the network's minimum, as the server checks it. */
export function checkDepositAmount(input: string, scale: number, minimum: string, decimalMark = '.'): AmountCheck {
  const text = normalizeAmount(input, decimalMark);
  const parsed = parseAmount(text, scale);
  if (!parsed.ok) return { ok: false, code: parsed.refusal };
  if (parsed.atomic === 0n) return { ok: false, code: 'amount_not_positive' };
  const least = parseAmount(minimum, scale);
  if (least.ok && parsed.atomic < least.atomic) return { ok: false, code: 'amount_below_minimum' };
  return { ok: true, text, atomic: parsed.atomic };
}

/** Decimals an amount needs to be written exactly ("10.000000" → 0, "0.000500" → 4). */
export function decimalsOf(text: string): number {
  const fraction = /\.([0-9]*)$/.exec(text)?.[1] ?? '';
  return fraction.replace(/0+$/, '').length;
}

/**
 * An amount of the currency spelled in the user's language at its display precision, with every
 * significant digit up to the scale: "10.00 USDT" as the withdrawal writes its minimum (issue 19 #7).
 */
export const spellAmount = (text: string, currency: string, scale: number, intl: string) =>
  formatAssetAmount(text, currency, intl, { scale, exact: true });

export const txHashPattern = /^[A-Za-z0-9]{8,128}$/;

/** The server's refusals of a deposit request, by the field they concern; others go under the form. */
const fieldsByCode: FieldsByCode = {
  amount_empty: 'amount', amount_negative: 'amount', amount_exponent: 'amount', amount_malformed: 'amount',
  amount_too_many_decimals: 'amount', amount_too_large: 'amount', amount_not_positive: 'amount', amount_below_minimum: 'amount',
  file_missing: 'proofFileId', file_not_found: 'proofFileId', file_type_unsupported: 'proofFileId', file_too_large: 'proofFileId',
  file_too_many_pixels: 'proofFileId',
};

interface Values { amount?: string; txHash?: string; proofFileId?: string }

// ─── The page ────────────────────────────────────────────────────────────────────────────────

export default function DepositPage() {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const list = useCurrencyListQuery();
  const currencies = useMemo(() => depositableCurrencies(list.data ?? []), [list.data]);
  const chosen = chooseDeposit(currencies, params.get('currency'), params.get('network'));
  const title = t`Deposit`;
  const recordsLink = (
    <Link to={depositRecordsPath} className="icon-button deposit-records-icon" aria-label={t`Deposit records`}>
      <BillOutline aria-hidden="true" />
    </Link>
  );

  if (list.isLoading) {
    return (
      <div className="deposit-page">
        <PageHeader title={title} fallback="/zichanCenter" right={recordsLink} />
        <div className="deposit-body" role="status" aria-label={t`Loading...`}>
          <Skeleton.Title animated />
          <Skeleton animated className="deposit-skeleton-chips" />
          <Skeleton animated className="deposit-skeleton-card" />
          <Skeleton.Paragraph lineCount={4} animated />
        </div>
      </div>
    );
  }
  if (!list.data) {
    return (
      <div className="deposit-page">
        <PageHeader title={title} fallback="/zichanCenter" right={recordsLink} />
        <ErrorBlock status="disconnected" title={t`Could not load the currencies`} description={failureText(list.error)}>
          <Button color="primary" onClick={() => void list.refetch()}>{t`Retry`}</Button>
        </ErrorBlock>
      </div>
    );
  }
  if (!chosen) {
    return (
      <div className="deposit-page">
        <PageHeader title={title} fallback="/zichanCenter" right={recordsLink} />
        <ErrorBlock status="empty" title={t`Deposits are not available at the moment.`}
          description={t`Please try again later, or contact customer service.`} />
      </div>
    );
  }

  const choose = (currencyCode: string, networkCode?: string) => {
    const next = chooseDeposit(currencies, currencyCode, networkCode ?? null);
    if (next) setParams({ currency: next.currency.currency, network: next.network.network }, { replace: true });
  };

  return (
    <div className="deposit-page">
      <PageHeader title={title} fallback="/zichanCenter" right={recordsLink} />
      <div className="deposit-body">
        <ChoiceGroup legend={t`Currency`} name="deposit-currency" value={chosen.currency.currency}
          options={currencies.map((currency) => ({ value: currency.currency, label: currency.currency, hint: currency.name }))}
          onChange={(value) => choose(value)} />
        <ChoiceGroup legend={t`Network`} name="deposit-network" value={chosen.network.network}
          options={chosen.currency.networks.map((network) => ({ value: network.network, label: network.network }))}
          onChange={(value) => choose(chosen.currency.currency, value)} />
        <AddressCard currency={chosen.currency} network={chosen.network} intl={intl} />
        <DepositForm key={`${chosen.currency.currency}/${chosen.network.network}`} currency={chosen.currency}
          network={chosen.network} intl={intl} onDone={(id) => navigate(depositResultPath(id), { state: { justSubmitted: true } satisfies ResultState })} />
        <Link className="deposit-records-link" to={depositRecordsPath}>{t`View my deposit records`}</Link>
      </div>
    </div>
  );
}

/** A row of choices as native radio buttons (arrow keys, one tab stop), drawn as chips. */
function ChoiceGroup({ legend, name, value, options, onChange }: {
  legend: string; name: string; value: string; options: { value: string; label: string; hint?: string }[];
  onChange(value: string): void;
}) {
  return (
    <fieldset className="deposit-choices">
      <legend>{legend}</legend>
      <div className="deposit-chips">
        {options.map((option) => (
          <label key={option.value} className={option.value === value ? 'deposit-chip checked' : 'deposit-chip'}>
            <input type="radio" name={name} value={option.value} checked={option.value === value}
              onChange={() => onChange(option.value)} />
            <span>{option.label}</span>
            {option.hint && option.hint !== option.label && <small>{option.hint}</small>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function AddressCard({ currency, network, intl }: { currency: CurrencyInfo; network: CurrencyNetwork; intl: string }) {
  const { t } = useLingui();
  const query = useDepositAddressQuery({ currency: currency.currency, network: network.network });
  // currentData: never the previous network's address while this one loads.
  const address = query.currentData;
  const code = currency.currency;
  const chain = network.network;
  const minimum = spellAmount(network.depositMin, currency.currency, currency.scale, intl);
  return (
    <section className="deposit-card" aria-labelledby="deposit-address-title">
      <h2 id="deposit-address-title" className="deposit-card-title">{t`Deposit address`}</h2>
      {address ? (
        <>
          <div className="deposit-qr">
            <AddressQr value={address.address} label={t`QR code of the ${code} ${chain} deposit address`} />
          </div>
          <div className="deposit-address-row">
            <p className="deposit-address" data-testid="deposit-address">{address.address}</p>
            <CopyButton text={address.address} label={t`Copy the deposit address`} />
          </div>
        </>
      ) : query.isError && !query.isFetching ? (
        <div className="deposit-address-error">
          <p role="alert">{failureText(query.error)}</p>
          <Button size="small" onClick={() => void query.refetch()}>{t`Retry`}</Button>
        </div>
      ) : (
        <div role="status" aria-label={t`Loading...`}>
          <Skeleton animated className="deposit-skeleton-qr" />
          <Skeleton.Paragraph lineCount={2} animated />
        </div>
      )}
      <p className="deposit-warning" role="note">
        {t`Send only ${code} on the ${chain} network to this address. Coins of another currency or sent on another network cannot be recovered.`}
      </p>
      <p className="deposit-minimum">{t`Minimum deposit: ${minimum} ${code}`}</p>
    </section>
  );
}

function DepositForm({ currency, network, intl, onDone }: {
  currency: CurrencyInfo; network: CurrencyNetwork; intl: string; onDone(id: string): void;
}) {
  const { t } = useLingui();
  const [form] = Form.useForm<Values>();
  const failure = useFormFailure(form, fieldsByCode);
  const [apply, { isLoading }] = useApplyRechargeMutation();
  const [confirming, setConfirming] = useState(false);
  const uploading = useRef(false);
  // While a photo uploads, its field says "wait" only to a submit: the progress bar says the rest.
  const submitting = useRef(false);
  const typed = Form.useWatch('amount', form) as string | undefined;
  const code = currency.currency;
  const chain = network.network;
  const { scale } = currency;
  const minimum = spellAmount(network.depositMin, code, scale, intl);
  const mark = decimalMarkOf(intl);
  const checked = typed ? checkDepositAmount(typed, scale, network.depositMin, mark) : undefined;
  // Deposits carry no fee on this platform: what is sent is what arrives.
  const arrival = checked?.ok ? checked.text : undefined;

  const amountMessage = (check: AmountCheck & { ok: false }) => check.code === 'amount_below_minimum'
    ? t`The minimum deposit is ${minimum} ${code}.`
    : translateError(check.code) ?? t`Please enter a valid amount.`;

  const submit = async (values: Values) => {
    failure.clear();
    const amount = checkDepositAmount(values.amount ?? '', scale, network.depositMin, mark);
    if (!amount.ok || !values.proofFileId) return;
    const txHash = values.txHash?.trim() || undefined;
    const shown = <Amount value={amount.text} asset={code} scale={scale} exact withAsset />;
    setConfirming(true);
    const confirmed = await confirmDialog({
      title: t`Confirm the deposit`,
      content: (
        <dl className="deposit-summary">
          <div><dt>{t`Currency`}</dt><dd>{code}</dd></div>
          <div><dt>{t`Network`}</dt><dd>{chain}</dd></div>
          <div><dt>{t`Amount`}</dt><dd>{shown}</dd></div>
          <div><dt>{t`Estimated arrival`}</dt><dd>{shown}</dd></div>
          {txHash && <div><dt>{t`Transaction hash`}</dt><dd className="deposit-summary-hash">{txHash}</dd></div>}
        </dl>
      ),
      confirmText: t`Submit`,
      cancelText: t`Cancel`,
    }).finally(() => setConfirming(false));
    if (!confirmed) return;
    const result = await apply({ currency: code, network: chain, amount: amount.text, proofFileId: values.proofFileId, ...(txHash ? { txHash } : {}) });
    if (!result.data) {
      failure.show(result.error);
      return;
    }
    onDone(result.data.id);
  };

  return (
    <Form form={form} layout="vertical" requiredMarkStyle="none" className="deposit-form"
      onValuesChange={failure.onValuesChange}
      onFinish={async (values: Values) => {
        submitting.current = false;
        await submit(values);
      }}
      onFinishFailed={() => {
        submitting.current = false;
      }}
      footer={<>
        <Button block type="submit" color="primary" size="large" loading={isLoading || confirming}
          onClick={() => {
            submitting.current = true;
          }}>{t`Submit`}</Button>
        <FormError {...failure.placed} />
      </>}>
      <Form.Item name="amount" label={t`Amount`} extra={<span className="deposit-unit">{code}</span>} validateTrigger="onBlur"
        rules={[{
          validator: async (_rule, value?: string) => {
            const check = checkDepositAmount(value ?? '', scale, network.depositMin, mark);
            if (!check.ok) throw new Error(amountMessage(check));
          },
        }]}>
        <Input placeholder={t`At least ${minimum}`} inputMode="decimal" autoComplete="off" enterKeyHint="next" clearable />
      </Form.Item>
      <div className="deposit-arrival" aria-live="polite">
        <div className="deposit-arrival-row">
          <span>{t`Estimated arrival`}</span>
          <strong data-testid="deposit-arrival">{arrival ? <Amount value={arrival} asset={code} scale={scale} exact withAsset /> : '—'}</strong>
        </div>
        <p>{t`Deposits carry no fee: the full amount you send arrives in your account once it is confirmed.`}</p>
      </div>
      <Form.Item name="txHash" label={t`Transaction hash (optional)`} validateTrigger="onBlur"
        rules={[{
          validator: async (_rule, value?: string) => {
            const text = value?.trim();
            if (text && !txHashPattern.test(text)) throw new Error(t`A transaction hash is 8 to 128 letters and digits.`);
          },
        }]}>
        <Input placeholder={t`Paste it from your wallet`} autoComplete="off" autoCapitalize="off" clearable />
      </Form.Item>
      <Form.Item name="proofFileId" label={t`Payment proof`} description={t`A screenshot or photo of the transfer in your wallet.`}
        rules={[{
          validator: async (_rule, value?: string) => {
            if (uploading.current) {
              if (submitting.current) throw new Error(t`Please wait until the photo is uploaded.`);
              return;
            }
            if (!value) throw new Error(translateError('file_missing') ?? t`Please attach a photo of the payment proof.`);
          },
        }]}>
        <ProofField onBusy={(busy) => {
          uploading.current = busy;
        }} />
      </Form.Item>
    </Form>
  );
}

/**
 * The proof photo as a form control whose value is the uploaded file's id: from the gallery or
 * the camera, prepared (made small) and uploaded at once, with a preview and a remove button.
 */
function ProofField({ value, onChange, onBusy, id }: {
  value?: string; onChange?: (value: string | undefined) => void; onBusy(busy: boolean): void; id?: string;
}) {
  const { t } = useLingui();
  const { shown: proof, remove, picked } = useUploadField({ purpose: 'deposit_proof', value, onChange, onBusy });

  const shown = proof.phase === 'uploading' || proof.phase === 'uploaded' ? proof : undefined;
  const percent = proof.phase === 'uploading' ? Math.round(proof.fraction * 100) : 100;
  return (
    <div className="proof-field" id={id}>
      {shown ? (
        <div className="proof-preview">
          {shown.isImage
            ? <img src={shown.preview} alt={t`Preview of the payment proof`} />
            : <span className="proof-file">{t`File attached`}</span>}
          <button type="button" className="proof-remove" aria-label={t`Remove the photo`} onClick={remove}>
            <CloseCircleFill aria-hidden="true" />
          </button>
        </div>
      ) : (
        <div className="proof-pickers">
          <label className="proof-pick">
            <input type="file" accept="image/*" onChange={picked} aria-label={t`Choose a photo from the gallery`}
              disabled={proof.phase === 'preparing'} />
            <PictureOutline aria-hidden="true" />
            <span>{t`Gallery`}</span>
          </label>
          <label className="proof-pick">
            <input type="file" accept="image/*" capture="environment" onChange={picked} aria-label={t`Take a photo with the camera`}
              disabled={proof.phase === 'preparing'} />
            <CameraOutline aria-hidden="true" />
            <span>{t`Camera`}</span>
          </label>
        </div>
      )}
      {proof.phase === 'preparing' && <p className="proof-status" role="status">{t`Preparing the photo…`}</p>}
      {proof.phase === 'uploading' && (
        <div className="proof-progress">
          <div className="proof-bar" role="progressbar" aria-label={t`Upload progress`} aria-valuemin={0} aria-valuemax={100}
            aria-valuenow={percent}>
            <div style={{ width: `${percent}%` }} />
          </div>
          <span className="proof-percent">{t`Uploading… ${percent}%`}</span>
        </div>
      )}
      {proof.phase === 'uploaded' && <p className="proof-status done" role="status">{t`Photo uploaded.`}</p>}
      {proof.phase === 'failed' && <p className="proof-error" role="alert">{proof.message}</p>}
    </div>
  );
}
