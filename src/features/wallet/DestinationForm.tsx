// Binding a payout destination (spec §2 jiesuanInfo, §7 addAccount / editAccount): a bank card
// (bank, holder's name, card or IBAN) or a chain address (currency, one of its networks that take
// withdrawals, the address, with a paste button). The server checks the address for the network
// (TRC20 base58check, ERC20 EIP-55, BTC bech32/base58) and the card number; its refusals show under
// the field they concern. Also the one-line labels both wallet pages show for a destination.
import { useState } from 'react';
import { Button, Form, Input, Selector } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { CurrencyInfo } from '../../api/contract/wallet.ts';
import type { AddDestinationBody, Destination } from '../../api/contract/withdrawals.ts';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { useAddDestinationMutation, useEditDestinationMutation } from '../../entities/wallet/walletApi.ts';
import { SecondFactorField } from '../../entities/session/SecondFactorFields.tsx';

/** The network of bank payouts (server/domain/core/wallet/withdrawals.ts): never a chain to bind an address on. */
export const bankNetwork = 'BANK';

export type DestinationType = 'bank' | 'chain';

/** Where each of the server's refusals of a destination goes. */
export const destinationFieldsByCode: FieldsByCode = {
  google_code_required: 'googleCode',
  google_code_invalid: 'googleCode',
  address_invalid: 'address',
  address_wrong_network: 'address',
  card_number_invalid: 'cardNumber',
  currency_unknown: 'currency',
  network_unknown: 'network',
  // destinations_too_many concerns the whole list: under the form.
};

/** "TLa2f6VPqD…8Ray5wYjU7" → "TLa2f6…5wYjU7": enough to recognise an address, on one line. */
export function shortAddress(address: string, keep = 6): string {
  return address.length <= keep * 2 + 1 ? address : `${address.slice(0, keep)}…${address.slice(-keep)}`;
}

/** The chain networks of a currency that take withdrawals (bank payouts are not a chain). */
export const chainNetworks = (currency: CurrencyInfo | undefined) =>
  (currency?.networks ?? []).filter((network) => network.withdrawalEnabled && network.network !== bankNetwork);

const iconProps = {
  width: 18, height: 18, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 1.8,
  strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true, focusable: false,
} as const;

/** A bank (columns under a roof) or a chain (two links): which kind a payout account is. */
export function DestinationIcon({ type }: { type: DestinationType }) {
  return (
    <span className={`destination-kind ${type}`}>
      {type === 'bank' ? (
        <svg {...iconProps}><path d="M3 10l9-6 9 6" /><path d="M5 10v8M9.5 10v8M14.5 10v8M19 10v8" /><path d="M3 20h18" /></svg>
      ) : (
        <svg {...iconProps}><path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" /><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" /></svg>
      )}
    </span>
  );
}

/** A destination's title and detail lines: "USDT · TRC20" and its address, or the bank and card. */
export function DestinationLabel({ destination, full = false }: { destination: Destination; full?: boolean }) {
  if (destination.type === 'chain') {
    const address = destination.address ?? '';
    return (
      <span className="destination-label">
        <span className="destination-title">{destination.currency} · {destination.network}</span>
        <span className={`destination-detail address${full ? ' full' : ''}`} title={address}>{full ? address : shortAddress(address)}</span>
      </span>
    );
  }
  return (
    <span className="destination-label">
      <span className="destination-title">{destination.bankName}</span>
      <span className="destination-detail">{destination.realName} · {destination.cardNumber}</span>
    </span>
  );
}

interface Values {
  bankName?: string;
  realName?: string;
  cardNumber?: string;
  currency?: string;
  network?: string;
  address?: string;
  /** Asked once the server answers google_code_required (an account with Google Authenticator bound). */
  googleCode?: string;
}

/** The body the form's values make, for its type; fields are trimmed (the server trims too). */
export function destinationBody(type: DestinationType, values: Values): AddDestinationBody {
  const text = (value: string | undefined) => (value ?? '').trim();
  if (type === 'bank') {
    return { type: 'bank', bankName: text(values.bankName), realName: text(values.realName), cardNumber: text(values.cardNumber) };
  }
  return { type: 'chain', currency: text(values.currency), network: text(values.network), address: text(values.address) };
}

/** One choice of a few as antd-mobile's Selector, as a form control holding a string. */
function OneOf({ value, onChange, options, label }: {
  value?: string; onChange?: (value: string) => void; options: { label: string; value: string }[]; label: string;
}) {
  return (
    <div role="radiogroup" aria-label={label}>
      <Selector options={options} value={value ? [value] : []} showCheckMark={false}
        onChange={(chosen) => {
          if (chosen[0]) onChange?.(chosen[0]);
        }} />
    </div>
  );
}

/** The address field with a "Paste" button where the browser lets a page read the clipboard. */
function AddressInput({ value, onChange, id, placeholder }: {
  value?: string; onChange?: (value: string) => void; id?: string; placeholder: string;
}) {
  const { t } = useLingui();
  const canPaste = typeof navigator !== 'undefined' && typeof navigator.clipboard?.readText === 'function';
  return (
    <div className="input-with-button address-input">
      <Input id={id} value={value} onChange={onChange} placeholder={placeholder} clearable autoComplete="off"
        autoCapitalize="off" autoCorrect="off" maxLength={100} />
      {canPaste && (
        <Button size="small" fill="outline" color="primary"
          onClick={async () => {
            try {
              const text = (await navigator.clipboard.readText()).trim();
              if (text) onChange?.(text.slice(0, 100));
            } catch {
              // Refused by the user or the browser: typing still works.
            }
          }}>
          {t`Paste`}
        </Button>
      )}
    </div>
  );
}

export function DestinationForm({ currencies, initial, initialType = 'chain', initialCurrency, onDone }: {
  currencies: CurrencyInfo[];
  /** The destination being edited; without it, a new one is added. */
  initial?: Destination;
  initialType?: DestinationType;
  initialCurrency?: string;
  onDone: (destination: Destination) => void;
}) {
  const { t } = useLingui();
  const [type, setType] = useState<DestinationType>(initial?.type ?? initialType);
  const [form] = Form.useForm<Values>();
  const failure = useFormFailure(form, destinationFieldsByCode);
  const [add, adding] = useAddDestinationMutation();
  const [edit, editing] = useEditDestinationMutation();
  const [codeAsked, setCodeAsked] = useState(false);
  const withdrawable = currencies.filter((currency) => chainNetworks(currency).length > 0);
  const startCurrency = initial?.currency ?? (withdrawable.some((c) => c.currency === initialCurrency) ? initialCurrency : withdrawable[0]?.currency);
  const chosenCurrency = (Form.useWatch('currency', form) as string | undefined) ?? startCurrency;
  const networks = chainNetworks(currencies.find((currency) => currency.currency === chosenCurrency));
  const initialValues: Values = {
    bankName: initial?.bankName ?? undefined,
    realName: initial?.realName ?? undefined,
    currency: startCurrency,
    network: initial?.network ?? chainNetworks(currencies.find((currency) => currency.currency === startCurrency))[0]?.network,
    address: initial?.address ?? undefined,
  };
  const required = (message: string) => [{ required: true, whitespace: true, message }];

  return (
    <div className="destination-form">
      {/* Two buttons rather than antd-mobile's Tabs, whose labels never wrap: "Dirección de
          billetera" and "Tarjeta bancaria" side by side are wider than a 320 px screen. */}
      <div className="destination-tabs" role="tablist" aria-label={t`Payout account type`}>
        {(['chain', 'bank'] as const).map((key) => (
          <button key={key} type="button" role="tab" aria-selected={type === key} className={`destination-tab${type === key ? ' active' : ''}`}
            onClick={() => {
              setType(key);
              failure.clear();
            }}>
            {key === 'chain' ? t`Wallet address` : t`Bank card`}
          </button>
        ))}
      </div>
      <Form form={form} layout="vertical" requiredMarkStyle="none" initialValues={initialValues}
        onValuesChange={(changed: Values) => {
          failure.onValuesChange(changed as Record<string, unknown>);
          if (changed.currency) {
            // A network of the old currency may not be one of the new one's.
            const next = chainNetworks(currencies.find((currency) => currency.currency === changed.currency));
            if (!next.some((network) => network.network === form.getFieldValue('network'))) {
              form.setFieldValue('network', next[0]?.network);
            }
          }
        }}
        onFinish={async (values: Values) => {
          failure.clear();
          const body = { ...destinationBody(type, values), ...(codeAsked ? { googleCode: values.googleCode?.trim() } : {}) };
          const result = initial ? await edit({ id: initial.id, ...body }) : await add(body);
          if (!result.data) {
            if ((result.error as { error?: string }).error === 'google_code_required') setCodeAsked(true);
            failure.show(result.error);
            return;
          }
          onDone(result.data);
        }}
        footer={<>
          <Button block type="submit" color="primary" size="large" loading={adding.isLoading || editing.isLoading}>
            {t`Save`}
          </Button>
          <FormError {...failure.placed} />
        </>}>
        {type === 'chain' ? (
          <>
            <Form.Item name="currency" label={t`Currency`} rules={required(t`Please choose a currency.`)}>
              <OneOf label={t`Currency`} options={withdrawable.map((currency) => ({ label: currency.currency, value: currency.currency }))} />
            </Form.Item>
            <Form.Item name="network" label={t`Network`} rules={required(t`Please choose a network.`)}>
              <OneOf label={t`Network`} options={networks.map((network) => ({ label: network.network, value: network.network }))} />
            </Form.Item>
            <Form.Item name="address" label={t`Receiving address`} rules={required(t`Please enter the address.`)}
              description={t`Check the network: coins sent to an address of another network are lost.`}>
              <AddressInput placeholder={t`Enter or paste the address`} />
            </Form.Item>
          </>
        ) : (
          <>
            <Form.Item name="bankName" label={t`Bank name`} rules={[...required(t`Please enter the bank name.`), { max: 64 }]}>
              <Input placeholder={t`Bank name`} clearable maxLength={64} autoComplete="off" />
            </Form.Item>
            <Form.Item name="realName" label={t`Account holder`} rules={[...required(t`Please enter the account holder's name.`), { max: 64 }]}>
              <Input placeholder={t`Name as on the account`} clearable maxLength={64} autoComplete="name" />
            </Form.Item>
            <Form.Item name="cardNumber" label={t`Card or account number`}
              rules={[...required(t`Please enter the card or account number.`), { min: 8, max: 48, message: t`This card or account number is not valid.` }]}
              description={initial?.type === 'bank' ? t`For your safety the full number is not shown: enter it again.` : undefined}>
              <Input placeholder={initial?.type === 'bank' ? t`Enter the full number again` : t`Card number or IBAN`} clearable
                maxLength={48} inputMode="text" autoComplete="off" />
            </Form.Item>
          </>
        )}
        {codeAsked && (
          <SecondFactorField useRecovery={false} />
        )}
      </Form>
    </div>
  );
}
