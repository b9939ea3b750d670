// The user's context beside a deposit or withdrawal under review (issue 18): verification level,
// the account's age, balances, what moved in the last 30 days and earlier rejections, so an
// operator sees a day-old unverified account asking for a fortune before approving it.
import { useLingui } from '@lingui/react/macro';
import { Alert, Card, Descriptions, Spin, Table, Tag, Typography } from 'antd';
import type { AdminReviewContext } from '../../api/contract/wallet.ts';
import { useReviewContextQuery } from '../api.ts';
import { failureMessage } from '../errors.ts';
import { currentIntl, formatAmount, formatTime } from '../format.ts';

const dayMs = 24 * 3_600_000;

/** Whether a decimal string is zero, read as text: amounts are never parsed into floats. */
const isZero = (value: string) => /^-?0*(\.0*)?$/.test(value);

/** "12 days ago", in the operator's language, from the account's creation time. */
function accountAge(createTime: number): string {
  const days = Math.max(0, Math.floor((Date.now() - createTime) / dayMs));
  return new Intl.RelativeTimeFormat(currentIntl(), { numeric: 'auto' }).format(-days, 'day');
}

function Movements({ context }: { context: AdminReviewContext }) {
  const { t } = useLingui();
  if (context.last30Days.length === 0) return <Typography.Text type="secondary">{t`None`}</Typography.Text>;
  return (
    <Table size="small" pagination={false} rowKey="currency" dataSource={context.last30Days} columns={[
      { key: 'currency', title: t`Currency`, dataIndex: 'currency' },
      { key: 'deposits', title: t`Deposits`, align: 'right',
        render: (_, row) => <span className="admin-amount">{row.deposits.count} · {formatAmount(row.deposits.total)}</span> },
      { key: 'withdrawals', title: t`Withdrawals`, align: 'right',
        render: (_, row) => <span className="admin-amount">{row.withdrawals.count} · {formatAmount(row.withdrawals.total)}</span> },
    ]} />
  );
}

function Balances({ context }: { context: AdminReviewContext }) {
  const { t } = useLingui();
  const held = context.balances.filter((row) => !isZero(row.available) || !isZero(row.frozen));
  if (held.length === 0) return <Typography.Text type="secondary">{t`None`}</Typography.Text>;
  return (
    <span>
      {held.map((row) => (
        <div key={row.currency} className="admin-amount">
          {row.currency} {formatAmount(row.available)}
          {!isZero(row.frozen) && <Typography.Text type="secondary"> ({t`frozen`} {formatAmount(row.frozen)})</Typography.Text>}
        </div>
      ))}
    </span>
  );
}

export function ReviewContextPanel({ userId }: { userId: string }) {
  const { t } = useLingui();
  const { data: context, error, isLoading } = useReviewContextQuery(userId);
  const levelText = (level: number) => (level === 0 ? t`Not verified` : level === 1 ? t`Basic (level 1)` : t`Advanced (level 2)`);
  return (
    <Card size="small" title={t`The user's context`} style={{ marginTop: 16 }} data-testid="review-context" data-kyc-level={context?.kycLevel}>
      {isLoading && <Spin />}
      {error && <Alert type="error" showIcon title={failureMessage(error)} />}
      {context && (
        <Descriptions column={1} size="small" items={[
          { key: 'kyc', label: t`Verification`, children: <Tag color={context.kycLevel === 0 ? 'warning' : 'success'}>{levelText(context.kycLevel)}</Tag> },
          { key: 'age', label: t`Account age`, children: <span title={formatTime(context.createTime)}>{accountAge(context.createTime)}</span> },
          { key: 'balances', label: t`Balances`, children: <Balances context={context} /> },
          { key: 'moved', label: t`Last 30 days (count · total)`, children: <Movements context={context} /> },
          {
            key: 'rejections', label: t`Earlier rejections`,
            children: context.rejections.count === 0 ? <span>0</span> : (
              <span>
                <strong>{context.rejections.count}</strong>
                {context.rejections.latestReason && <Typography.Text type="secondary"> · {t`latest`}: {context.rejections.latestReason} ({formatTime(context.rejections.latestTime)})</Typography.Text>}
              </span>
            ),
          },
        ]} />
      )}
    </Card>
  );
}
