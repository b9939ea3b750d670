// The statuses of deposit and withdrawal records (spec §4: 1 delivered, 0 under review,
// -1 rejected, 2 paid out, -2 failed) as the user reads them: a label, a tone (colour) and an
// icon. Deposits use 0 / 1 / -1, withdrawals 0 / 2 / -1 / -2. Shared by the records page, the
// result page and whatever page shows a record's state.
import type { ReactElement } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { recordStatus } from '../../api/contract/wallet.ts';
import './records.css';

export type RecordKind = 'deposit' | 'withdrawal';
export const recordKinds: readonly RecordKind[] = ['deposit', 'withdrawal'];
export const isRecordKind = (value: unknown): value is RecordKind => value === 'deposit' || value === 'withdrawal';

/** The statuses each kind of record goes through, in the order the filter offers them. */
export const statusesOf: Record<RecordKind, readonly number[]> = {
  deposit: [recordStatus.underReview, recordStatus.delivered, recordStatus.rejected],
  withdrawal: [recordStatus.underReview, recordStatus.paidOut, recordStatus.rejected, recordStatus.failed],
};

/** pending: waiting for an operator; done: the money arrived or went out; refused: rejected or failed (the money is back). */
export type StatusTone = 'pending' | 'done' | 'refused' | 'unknown';

export interface StatusView {
  tone: StatusTone;
  /** The short label of a chip or filter ("Under review"). */
  label: MessageDescriptor;
  /** The heading of the result page ("Deposit rejected"). */
  title: MessageDescriptor;
}

const unknownView: StatusView = { tone: 'unknown', label: msg`Unknown status`, title: msg`Unknown status` };

const views: Record<RecordKind, Record<number, StatusView>> = {
  deposit: {
    [recordStatus.underReview]: { tone: 'pending', label: msg`Under review`, title: msg`Deposit submitted, under review` },
    [recordStatus.delivered]: { tone: 'done', label: msg`Arrived`, title: msg`Deposit arrived` },
    [recordStatus.rejected]: { tone: 'refused', label: msg`Rejected`, title: msg`Deposit rejected` },
  },
  withdrawal: {
    [recordStatus.underReview]: { tone: 'pending', label: msg`Under review`, title: msg`Withdrawal submitted, under review` },
    // Spec §4 names 1 "delivered (arrived or paid)"; this server pays withdrawals out as 2.
    [recordStatus.delivered]: { tone: 'done', label: msg`Delivered`, title: msg`Withdrawal delivered` },
    [recordStatus.paidOut]: { tone: 'done', label: msg`Paid out`, title: msg`Withdrawal paid out` },
    [recordStatus.rejected]: { tone: 'refused', label: msg`Rejected`, title: msg`Withdrawal rejected` },
    [recordStatus.failed]: { tone: 'refused', label: msg`Failed`, title: msg`Withdrawal failed` },
  },
};

export const statusView = (kind: RecordKind, status: number): StatusView => views[kind][status] ?? unknownView;

/** A status whose record carries the operator's reason (rejected, failed). */
export const hasReason = (status: number) => status === recordStatus.rejected || status === recordStatus.failed;
export const isUnderReview = (status: number) => status === recordStatus.underReview;

const iconPaths: Record<StatusTone, ReactElement> = {
  pending: <><circle cx="12" cy="12" r="9" /><path d="M12 7v5l3 2" /></>,
  done: <><circle cx="12" cy="12" r="9" /><path d="M8 12.5l2.7 2.7L16 9.8" /></>,
  refused: <><circle cx="12" cy="12" r="9" /><path d="M9 9l6 6M15 9l-6 6" /></>,
  unknown: <><circle cx="12" cy="12" r="9" /><path d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .8-1 1.5V14" /><path d="M12 17h.01" /></>,
};

/** The status's icon, decorative: the label beside it says the status. */
export function StatusIcon({ tone, size = 16 }: { tone: StatusTone; size?: number }) {
  return (
    <svg className={`status-icon tone-${tone}`} width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor"
      strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {iconPaths[tone]}
    </svg>
  );
}

/** A chip with the status's icon and label, coloured by its tone. */
export function StatusChip({ kind, status }: { kind: RecordKind; status: number }) {
  const { i18n } = useLingui();
  const view = statusView(kind, status);
  return (
    <span className={`status-chip tone-${view.tone}`} data-status={status}>
      <StatusIcon tone={view.tone} size={14} />
      {i18n._(view.label)}
    </span>
  );
}
