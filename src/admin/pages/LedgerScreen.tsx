// The ledger check (server/domain/kernel/ledger/verify.ts): every account's hash chain, every balance
// against its transfers, and per asset the sum of all accounts, which must be zero. Each run is
// recorded in the audit trail by the server.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, Button, Card, Descriptions, Result, Skeleton, Table, Tag } from 'antd';
import type { LedgerCheckResult } from '../../api/contract/admin.ts';
import { useLedgerCheckQuery } from '../api.ts';
import { failureMessage } from '../errors.ts';
import { formatAmount, formatCount, formatTime } from '../format.ts';

type AssetSum = LedgerCheckResult['assets'][number];

const isZero = (value: string) => /^-?0*(\.0*)?$/.test(value);

export function LedgerScreen() {
  const { t } = useLingui();
  const [run, setRun] = useState(1);
  const { data, isFetching, error } = useLedgerCheckQuery(run, { refetchOnMountOrArgChange: true });
  const yesNo = (ok: boolean) => (ok ? <Tag color="success">{t`Yes`}</Tag> : <Tag color="error">{t`No`}</Tag>);
  const allGood = data && data.chainValid && data.balancesValid && data.conserved && data.problems.length === 0;
  return (
    <Card title={t`Ledger check`} extra={<Button type="primary" loading={isFetching} onClick={() => setRun((count) => count + 1)}>{t`Run check`}</Button>}>
      {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} style={{ marginBottom: 16 }} />}
      {!data && isFetching && <Skeleton active />}
      {data && (
        <div data-testid="ledger-result">
          <Result status={allGood ? 'success' : 'error'} style={{ padding: '8px 0 24px' }}
            title={allGood ? t`The ledger is consistent.` : t`The ledger check found problems.`}
            subTitle={<CheckedAt ms={data.checkedAt} />} />
          <Descriptions bordered column={2} size="small" style={{ marginBottom: 24 }} items={[
            { key: 'chain', label: t`Hash chains valid`, children: <span data-testid="chain-valid">{yesNo(data.chainValid)}</span> },
            { key: 'balances', label: t`Balances match transfers`, children: yesNo(data.balancesValid) },
            { key: 'conserved', label: t`Every asset sums to zero`, children: yesNo(data.conserved) },
            { key: 'transfers', label: t`Transfers`, children: <span data-testid="transfer-count">{formatCount(data.transfers)}</span> },
            { key: 'accounts', label: t`Accounts`, children: formatCount(data.accounts) },
            { key: 'digest', label: t`Chain heads digest`, children: <span className="admin-mono">{data.headsDigest}</span> },
          ]} />
          <Table<AssetSum> rowKey={(asset) => `${asset.ledger}:${asset.currency}`} size="small" pagination={false}
            dataSource={data.assets} data-testid="ledger-assets"
            columns={[
              { key: 'currency', title: t`Currency`, dataIndex: 'currency' },
              { key: 'ledger', title: t`Ledger`, render: (_, asset) => (asset.ledger === 'demo' ? t`Demo` : asset.ledger === 'real' ? t`Real` : asset.ledger) },
              { key: 'sum', title: t`Sum of all accounts`, align: 'right', render: (_, asset) => (
                <span className="admin-amount">{formatAmount(asset.sum)} {isZero(asset.sum) ? <Tag color="success">{t`OK`}</Tag> : <Tag color="error">{t`Not zero`}</Tag>}</span>
              ) },
              { key: 'pending', title: t`Sum of pending transfers`, align: 'right', render: (_, asset) => (
                <span className="admin-amount">{formatAmount(asset.pendingSum)} {isZero(asset.pendingSum) ? <Tag color="success">{t`OK`}</Tag> : <Tag color="error">{t`Not zero`}</Tag>}</span>
              ) },
            ]} />
          {data.problems.length > 0 && (
            <Alert type="error" style={{ marginTop: 16 }} title={t`Problems`} description={<ul>{data.problems.map((problem) => <li key={problem} className="admin-mono">{problem}</li>)}</ul>} />
          )}
        </div>
      )}
    </Card>
  );
}

function CheckedAt({ ms }: { ms: number }) {
  const { t } = useLingui();
  const time = formatTime(ms);
  return <>{t`Checked at ${time}`}</>;
}
