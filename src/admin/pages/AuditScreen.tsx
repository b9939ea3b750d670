// The audit trail: every operator action, newest first, with who, when, what and the record
// before and after, paged and filtered by action (admins only: a finance operator is told so).
import { useState } from 'react';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { Alert, Button, Card, Col, Row, Select, Space, Table, Typography } from 'antd';
import type { AuditRecord } from '../../api/contract/admin.ts';
import { useAuditQuery } from '../api.ts';
import { i18n } from '../i18n.ts';
import { failureMessage } from '../errors.ts';
import { formatTime } from '../format.ts';
import { EmailText } from './EmailText.tsx';

export const auditActions: Record<string, MessageDescriptor> = {
  'recharge.approve': msg`Deposit approved`,
  'recharge.reject': msg`Deposit rejected`,
  'withdrawal.approve': msg`Withdrawal approved`,
  'withdrawal.reject': msg`Withdrawal rejected`,
  'withdrawal.paid': msg`Withdrawal paid`,
  'withdrawal.failed': msg`Withdrawal failed`,
  'withdrawal.settings': msg`Two-operator threshold changed`,
  'settings.currency': msg`Currency settings changed`,
  'settings.network': msg`Network settings changed`,
  'trade.symbol_settings': msg`Contract settings changed`,
  'trade.second_set': msg`Second-contract settings changed`,
  'trade.swap_settings': msg`Flash swap settings changed`,
  'ledger.check': msg`Ledger checked`,
  'liabilities.publish': msg`Proof of liabilities published`,
  'operator.login': msg`Operator logged in`,
  'operator.logout': msg`Operator logged out`,
  'operator.create': msg`Operator created`,
  'operator.disable': msg`Operator disabled`,
  'operator.totp_rotate': msg`Operator's authenticator replaced`,
  'user.search': msg`Users searched`,
  'kyc.approve': msg`Identity verification approved`,
  'kyc.reject': msg`Identity verification rejected`,
  'kyc.level': msg`Verification level changed`,
  'kyc_photo_viewed': msg`Identity photo viewed`,
};

const actionText = (action: string) => (auditActions[action] ? i18n._(auditActions[action]) : action);

const json = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value, null, 2));

export function AuditScreen() {
  const { t } = useLingui();
  const [action, setAction] = useState<string>();
  const [pageNo, setPageNo] = useState(1);
  const { data, isFetching, error, refetch } = useAuditQuery({ pageNo, ...(action ? { action } : {}) });
  return (
    <Card>
      <Space style={{ marginBottom: 16 }} wrap>
        <Select allowClear placeholder={t`Every action`} aria-label={t`Action`} style={{ width: 300 }} value={action}
          onChange={(value?: string) => {
            setAction(value);
            setPageNo(1);
          }}
          options={Object.keys(auditActions).map((key) => ({ value: key, label: actionText(key) }))} />
        <Button onClick={() => void refetch()} loading={isFetching}>{t`Refresh`}</Button>
      </Space>
      {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} style={{ marginBottom: 16 }} />}
      <Table<AuditRecord> rowKey="id" loading={isFetching} dataSource={data?.records ?? []} size="middle" data-testid="audit-table"
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        expandable={{
          expandedRowRender: (record) => (
            <Row gutter={16}>
              <Col span={12}>
                <Typography.Text strong>{t`Before`}</Typography.Text>
                <pre className="admin-json">{json(record.before)}</pre>
              </Col>
              <Col span={12}>
                <Typography.Text strong>{t`After`}</Typography.Text>
                <pre className="admin-json">{json(record.after)}</pre>
              </Col>
            </Row>
          ),
        }}
        columns={[
          { key: 'time', title: t`Time`, render: (_, record) => <span className="admin-time">{formatTime(record.time)}</span> },
          { key: 'who', title: t`Operator`, render: (_, record) => <EmailText email={record.operatorEmail} /> },
          { key: 'action', title: t`Action`, render: (_, record) => actionText(record.action) },
          { key: 'target', title: t`Target`, render: (_, record) => <span className="admin-mono">{record.targetType}{record.targetId ? ` ${record.targetId}` : ''}</span> },
          { key: 'user', title: t`User`, render: (_, record) => record.userId ?? '—' },
          { key: 'reason', title: t`Reason`, render: (_, record) => <span className="admin-cut" title={record.reason ?? undefined}>{record.reason ?? '—'}</span> },
        ]} />
    </Card>
  );
}
