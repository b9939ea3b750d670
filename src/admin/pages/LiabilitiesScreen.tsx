// Proof of liabilities (contract/liabilities.ts): the published roots of the Merkle sum tree over
// every user's balances, newest first, with the totals per asset, and "Publish now" for a root
// outside the daily schedule (audited by the server).
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Space, Table, Tag, Typography } from 'antd';
import type { LiabilityRoot } from '../../api/contract/liabilities.ts';
import { useLiabilityRootsQuery, usePublishLiabilitiesMutation } from '../api.ts';
import { failureMessage } from '../errors.ts';
import { formatAmount, formatCount, formatTime } from '../format.ts';

export function LiabilitiesScreen() {
  const { t } = useLingui();
  const { modal, message } = App.useApp();
  const [pageNo, setPageNo] = useState(1);
  const { data, isFetching, isError, refetch } = useLiabilityRootsQuery(pageNo);
  const [publish, { isLoading: publishing }] = usePublishLiabilitiesMutation();
  const [failure, setFailure] = useState('');
  const confirmPublish = () => modal.confirm({
    title: t`Publish a proof of liabilities now?`,
    content: t`The balances of every user are read now and a new root is published beside the daily ones.`,
    okText: t`Publish`,
    onOk: async () => {
      setFailure('');
      const answer = await publish();
      if ('error' in answer) {
        setFailure(failureMessage(answer.error));
        return;
      }
      void message.success(t`A new root was published.`);
    },
  });
  return (
    <Card title={t`Published roots`} extra={(
      <Space>
        <Button onClick={() => void refetch()} loading={isFetching}>{t`Refresh`}</Button>
        <Button type="primary" loading={publishing} onClick={confirmPublish}>{t`Publish now`}</Button>
      </Space>
    )}>
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} />}
      {isError && <Alert type="error" showIcon title={t`The published roots could not be loaded.`} style={{ marginBottom: 16 }} />}
      <Table<LiabilityRoot> rowKey="id" loading={isFetching} dataSource={data?.records ?? []} data-testid="liabilities-table"
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        columns={[
          { key: 'time', title: t`Balances read at`, render: (_, root) => <span className="admin-time">{formatTime(root.time)}</span> },
          { key: 'trigger', title: t`Published by`, render: (_, root) => (root.trigger === 'daily'
            ? <Tag>{t`Daily schedule`}</Tag> : <Tag color="blue">{t`Operator`}</Tag>) },
          { key: 'leaves', title: t`Leaves (padded)`, align: 'right', render: (_, root) => formatCount(root.leafCount) },
          { key: 'totals', title: t`Totals`, render: (_, root) => (
            <Space orientation="vertical" size={0}>
              {root.totals.map((total) => <span key={total.currency} className="admin-amount">{formatAmount(total.total)} {total.currency}</span>)}
            </Space>
          ) },
          { key: 'root', title: t`Root hash`, render: (_, root) => <Typography.Text className="admin-mono" copyable>{root.root}</Typography.Text> },
        ]} />
    </Card>
  );
}
