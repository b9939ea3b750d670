// Identity verification in the back office: the review queue (pending first; filters by status,
// level and user id) and a drawer with every field of an application and, for basic verification,
// the front and back photos side by side (each read is in the audit trail). Pending applications
// are approved (after a confirmation) or rejected with a reason the user reads; decided ones are
// read-only with who decided, when and why. The second tab edits what each level unlocks.
import { useState } from 'react';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Col, Descriptions, Drawer, Input, Row, Select, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { AdminKycApplication } from '../../api/contract/identity.ts';
import { i18n } from '../i18n.ts';
import { failureMessage } from '../errors.ts';
import { formatTime } from '../format.ts';
import { EmailText } from './EmailText.tsx';
import { useApproveKycMutation, useKycApplicationsQuery, useRejectKycMutation, type KycStatusFilter } from '../identityApi.ts';
import { ReasonModal } from './ReasonModal.tsx';
import { KycPhoto } from './KycPhoto.tsx';
import { KycLevelsTab } from './KycLevelsTab.tsx';

/** The application fields the server sends, in reading order, with their labels. */
const fieldLabels: Record<string, MessageDescriptor> = {
  surname: msg`Surname`,
  firstName: msg`First name`,
  idType: msg`Document type`,
  idNumber: msg`Document number`,
  currentAddress: msg`Current address`,
  emergencySurname: msg`Emergency contact's surname`,
  emergencyName: msg`Emergency contact's name`,
  emergencyRelationship: msg`Relationship`,
  emergencyPhone: msg`Emergency contact's phone`,
  emergencyAddress: msg`Emergency contact's address`,
};
const idTypes: Record<string, MessageDescriptor> = { passport: msg`Passport`, id_card: msg`ID card` };

const fieldValue = (key: string, value: string) => (key === 'idType' && idTypes[value] ? i18n._(idTypes[value]) : value);

export function KycStatusTag({ status }: { status: AdminKycApplication['status'] }) {
  const { t } = useLingui();
  if (status === 'approved') return <Tag color="success">{t`Approved`}</Tag>;
  if (status === 'rejected') return <Tag color="error">{t`Rejected`}</Tag>;
  return <Tag color="processing">{t`Under review`}</Tag>;
}

function LevelName({ level }: { level: number }) {
  const { t } = useLingui();
  return <>{level === 1 ? t`Basic` : t`Advanced`}</>;
}

function KycDrawer({ record, onClose }: { record: AdminKycApplication | undefined; onClose(): void }) {
  const { t } = useLingui();
  const { modal, message } = App.useApp();
  const [approve, { isLoading }] = useApproveKycMutation();
  const [reject] = useRejectKycMutation();
  const [rejecting, setRejecting] = useState(false);
  const [failure, setFailure] = useState('');
  const close = () => {
    setFailure('');
    setRejecting(false);
    onClose();
  };
  const confirmApprove = () => {
    const account = record!.account;
    modal.confirm({
      title: t`Approve this verification?`,
      content: t`${account} will be verified at this level. Check that the name and number match the photos.`,
      okText: t`Approve`,
      onOk: async () => {
        const answer = await approve(record!.id);
        if ('error' in answer) {
          setFailure(failureMessage(answer.error));
          return;
        }
        void message.success(t`Verification approved.`);
        close();
      },
    });
  };
  const known = record ? Object.keys(fieldLabels).filter((key) => key in record.details) : [];
  const others = record ? Object.keys(record.details).filter((key) => !(key in fieldLabels)) : [];
  return (
    <Drawer open={!!record} onClose={close} size={Math.min(1040, window.innerWidth - 48)} title={t`Identity verification review`} destroyOnHidden
      rootClassName="admin-drawer"
      extra={record?.status === 'pending' && (
        <Space>
          <Button danger onClick={() => setRejecting(true)} data-testid="kyc-reject">{t`Reject`}</Button>
          <Button type="primary" loading={isLoading} onClick={confirmApprove} data-testid="kyc-approve">{t`Approve`}</Button>
        </Space>
      )}>
      {record && (
        <>
          {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} data-testid="kyc-decision-error" />}
          <Descriptions column={1} bordered size="small" data-testid="kyc-details" items={[
            { key: 'id', label: t`Application`, children: record.id },
            { key: 'user', label: t`User`, children: <span>{record.account} <Typography.Text type="secondary">#{record.userId}</Typography.Text></span> },
            { key: 'level', label: t`Level`, children: <LevelName level={record.level} /> },
            { key: 'status', label: t`Status`, children: <KycStatusTag status={record.status} /> },
            { key: 'time', label: t`Submitted`, children: formatTime(record.createdAt) },
            ...known.map((key) => ({ key, label: i18n._(fieldLabels[key]), children: fieldValue(key, record.details[key]) })),
            ...others.map((key) => ({ key, label: key, children: record.details[key] })),
            ...(record.decidedBy ? [{ key: 'by', label: t`Decided by`, children: record.decidedBy }] : []),
            ...(record.decidedAt ? [{ key: 'decided', label: t`Decided`, children: formatTime(record.decidedAt) }] : []),
            ...(record.reason ? [{ key: 'reason', label: t`Reason`, children: <span data-testid="kyc-reason">{record.reason}</span> }] : []),
          ]} />
          {(record.hasFront || record.hasBack) && (
            <>
              <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
                {t`Each view of a document is recorded in the audit trail.`}
              </Typography.Paragraph>
              <Row gutter={16} data-testid="kyc-photos">
                <Col span={12}>
                  <Typography.Title level={5}>{t`Front`}</Typography.Title>
                  {record.hasFront ? <KycPhoto id={record.id} side="front" label={t`Front of the document`} /> : '—'}
                </Col>
                <Col span={12}>
                  <Typography.Title level={5}>{t`Back`}</Typography.Title>
                  {record.hasBack ? <KycPhoto id={record.id} side="back" label={t`Back of the document`} /> : '—'}
                </Col>
              </Row>
            </>
          )}
        </>
      )}
      <ReasonModal open={rejecting} title={t`Reject this verification`} label={t`Reason (the user reads it)`} okText={t`Reject`}
        minLength={2} maxLength={500} onCancel={() => setRejecting(false)}
        onSubmit={async (reason) => {
          const answer = await reject({ id: record!.id, reason });
          if ('error' in answer) return failureMessage(answer.error);
          setRejecting(false);
          void message.success(t`Verification rejected.`);
          close();
          return undefined;
        }} />
    </Drawer>
  );
}

function KycQueue() {
  const { t } = useLingui();
  const [status, setStatus] = useState<KycStatusFilter>('pending');
  const [level, setLevel] = useState<1 | 2>();
  const [userId, setUserId] = useState('');
  const [userIdInput, setUserIdInput] = useState('');
  const [pageNo, setPageNo] = useState(1);
  const [openId, setOpenId] = useState<string>();
  const { data, isFetching, error, refetch } = useKycApplicationsQuery({ status, level, userId: userId || undefined, pageNo });
  // The drawer follows the list: after a decision the record leaves the pending list and the drawer closes.
  const open = data?.records.find((record) => record.id === openId);
  const userIdValid = userIdInput === '' || /^[1-9][0-9]{0,18}$/.test(userIdInput);
  return (
    <>
      <Tabs activeKey={status} onChange={(key) => {
        setStatus(key as KycStatusFilter);
        setPageNo(1);
      }} items={[
        { key: 'pending', label: t`Under review` },
        { key: 'approved', label: t`Approved` },
        { key: 'rejected', label: t`Rejected` },
      ]} tabBarExtraContent={<Button onClick={() => void refetch()} loading={isFetching}>{t`Refresh`}</Button>} />
      <Space wrap style={{ marginBottom: 16 }}>
        <Select<1 | 2> allowClear placeholder={t`Every level`} aria-label={t`Level`} style={{ width: 180 }} value={level}
          onChange={(value) => {
            setLevel(value);
            setPageNo(1);
          }}
          options={[{ value: 1, label: t`Basic` }, { value: 2, label: t`Advanced` }]} />
        <Input.Search allowClear placeholder={t`User id`} aria-label={t`User id`} style={{ width: 220 }} value={userIdInput}
          status={userIdValid ? undefined : 'error'} inputMode="numeric" data-testid="kyc-user-filter"
          onChange={(event) => {
            setUserIdInput(event.target.value.trim());
            if (event.target.value === '') setUserId('');
          }}
          onSearch={(value) => {
            if (value === '' || /^[1-9][0-9]{0,18}$/.test(value.trim())) {
              setUserId(value.trim());
              setPageNo(1);
            }
          }} />
        {!userIdValid && <Typography.Text type="danger">{t`A user id is a whole number.`}</Typography.Text>}
      </Space>
      {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} style={{ marginBottom: 16 }} />}
      <Table<AdminKycApplication> rowKey="id" loading={isFetching} dataSource={data?.records ?? []} data-testid="kyc-table"
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        onRow={(record) => ({ onClick: () => setOpenId(record.id), style: { cursor: 'pointer' } })}
        columns={[
          { key: 'user', title: t`User`, render: (_, record) => <EmailText email={record.account}> <Typography.Text type="secondary">#{record.userId}</Typography.Text></EmailText> },
          { key: 'level', title: t`Level`, render: (_, record) => <LevelName level={record.level} /> },
          { key: 'name', title: t`Name`, render: (_, record) => [record.details.surname, record.details.firstName].filter(Boolean).join(' ') || '—' },
          { key: 'time', title: t`Submitted`, render: (_, record) => <span className="admin-time">{formatTime(record.createdAt)}</span> },
          ...(status === 'pending' ? [] : [
            { key: 'decided', title: t`Decided`, render: (_: unknown, record: AdminKycApplication) => <span className="admin-time">{formatTime(record.decidedAt)}</span> },
            { key: 'reason', title: t`Reason`, render: (_: unknown, record: AdminKycApplication) => <span className="admin-cut" title={record.reason ?? undefined}>{record.reason ?? '—'}</span> },
          ]),
          { key: 'action', title: '', render: (_, record) => (
            <Button size="small" onClick={() => setOpenId(record.id)}>{status === 'pending' ? t`Review` : t`Details`}</Button>
          ) },
        ]} />
      <KycDrawer record={open} onClose={() => setOpenId(undefined)} />
    </>
  );
}

export function KycScreen() {
  const { t } = useLingui();
  return (
    <Card>
      <Tabs items={[
        { key: 'queue', label: t`Review queue`, children: <KycQueue /> },
        { key: 'levels', label: t`Verification levels`, children: <KycLevelsTab /> },
      ]} />
    </Card>
  );
}
