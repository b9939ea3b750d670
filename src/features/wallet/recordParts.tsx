// What the records page and the result page both show of a deposit or a withdrawal: its fields
// as a description list (amounts in the user's language, with the currency's decimals, which
// the server's strings carry), the destination masked, the payout reference copyable, and the
// operator's reason in full, since it is what the user has to read.
import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { RechargeRecord } from '../../api/contract/wallet.ts';
import type { Withdrawal } from '../../api/contract/withdrawals.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';
import { formatAssetAmount } from '../../lib/assetPrecision.ts';
import { Amount } from '../../components/Amount.tsx';
import { hasReason, type RecordKind } from './recordStatus.tsx';
import { ProofThumb } from './ProofThumb.tsx';

export type KindRecord = { kind: 'deposit'; record: RechargeRecord } | { kind: 'withdrawal'; record: Withdrawal };

export { decimalsOf } from '../../lib/number.ts';
import { decimalsOf } from '../../lib/number.ts';

/**
 * A record's amount, as the user's language writes it at the currency's display precision with the
 * significant digits moved ("500.000000" → "500.00", "0.001000" → "0.001"): what the withdrawal
 * form and its confirm sheet showed (issue 19 #7).
 */
export const formatAmount = (amount: string, intl: string, currency?: string) =>
  formatAssetAmount(amount, currency, intl, { scale: decimalsOf(amount), exact: true });

/** The same, as an unbreakable figure with the currency's code. */
export const RecordAmount = ({ amount, currency }: { amount: string; currency: string }) =>
  <Amount value={amount} asset={currency} scale={decimalsOf(amount)} exact withAsset />;

/** "TR7NHq…gjLj6t": enough of an address to recognise it, not to read it off the screen. */
export function maskChainAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-6)}` : address;
}

/** Where a withdrawal goes, in one line: the bank and the masked card, or the masked address. */
export function destinationText(destination: Withdrawal['destination']): string {
  if (destination.type === 'bank') {
    return [destination.bankName, destination.cardNumber].filter(Boolean).join(' ');
  }
  return destination.address ? maskChainAddress(destination.address) : '';
}

function Field({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={`record-field${wide ? ' wide' : ''}`}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The operator's reason for a rejection or a failed payout, in full. */
export function RecordReason({ kind, status, reason }: { kind: RecordKind; status: number; reason: string | null }) {
  const { t } = useLingui();
  if (!hasReason(status) || !reason) return null;
  const label = status === -2 ? t`Why the payout failed` : kind === 'deposit' ? t`Why the deposit was rejected` : t`Why the withdrawal was rejected`;
  return (
    <div className="record-reason">
      <span className="record-reason-label">{label}</span>
      <p>{reason}</p>
    </div>
  );
}

/**
 * The fields of a record. `withCurrency` adds the currency and network (the result page; the
 * records list shows them in the row's heading).
 */
export function RecordFields({ item, withCurrency = false }: { item: KindRecord; withCurrency?: boolean }) {
  const { t } = useLingui();
  const { record } = item;
  const money = (amount: string) => <span className="record-amount"><RecordAmount amount={amount} currency={record.currency} /></span>;
  return (
    <dl className="record-fields">
      {withCurrency && <Field label={t`Currency`}>{record.currency}</Field>}
      {withCurrency && <Field label={t`Network`}>{record.network}</Field>}
      <Field label={t`Amount`}>{money(record.amount)}</Field>
      {item.kind === 'withdrawal' && <Field label={t`Fee`}>{money(item.record.fee)}</Field>}
      {item.kind === 'withdrawal' && <Field label={t`Total deducted`}>{money(item.record.total)}</Field>}
      {item.kind === 'withdrawal' && (
        <Field label={item.record.destination.type === 'bank' ? t`Bank card` : t`Wallet address`} wide>
          <span className="record-mono">{destinationText(item.record.destination)}</span>
        </Field>
      )}
      <Field label={t`Created`}><time dateTime={isoOfEpochMs(record.createTime)}>{formatEpochMs(record.createTime)}</time></Field>
      {record.decideTime !== null && (
        <Field label={t`Processed`}><time dateTime={isoOfEpochMs(record.decideTime)}>{formatEpochMs(record.decideTime)}</time></Field>
      )}
      {item.kind === 'deposit' && item.record.txHash && (
        <Field label={t`Transaction hash`} wide>
          <span className="record-copyable">
            <span className="record-mono">{maskChainAddress(item.record.txHash)}</span>
            <CopyButton text={item.record.txHash} label={t`Copy the transaction hash`} />
          </span>
        </Field>
      )}
      {item.kind === 'withdrawal' && item.record.payoutReference && (
        <Field label={t`Payout reference`} wide>
          <span className="record-copyable">
            <span className="record-mono record-reference">{item.record.payoutReference}</span>
            <CopyButton text={item.record.payoutReference} label={t`Copy the payout reference`} />
          </span>
        </Field>
      )}
    </dl>
  );
}

/** A deposit's proof beside its fields, or nothing for a withdrawal. */
export function RecordProof({ item }: { item: KindRecord }) {
  return item.kind === 'deposit' ? <ProofThumb url={item.record.proofUrl} /> : null;
}
