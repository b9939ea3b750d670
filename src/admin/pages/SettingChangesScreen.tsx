// Setting changes (issue 38 point 1): raising a two-operator threshold, putting a product on sale or
// raising its limits, raising a welfare reward, a VIP bonus or a team commission rate is saved as a
// request (only administrators make those changes), and takes effect only when an operator other
// than the one who asked (an administrator or a finance operator) approves it here; the server
// applies it then, checking its bounds again. Any operator may reject one with a reason; the one
// who asked may withdraw it the same way. The switch shows the decided ones too, with who decided
// and why. Every decision is in the audit trail.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Space, Switch, Table, Tag, Typography } from 'antd';
import type { SettingChange } from '../../api/contract/settingChanges.ts';
import { useMeQuery } from '../api.ts';
import { failureMessage } from '../errors.ts';
import { formatTime } from '../format.ts';
import { useApproveSettingChangeMutation, useRejectSettingChangeMutation, useSettingChangesQuery } from '../settingChangesApi.ts';
import { ReasonModal } from './ReasonModal.tsx';
import { useDescribeSettingChange, type ChangeWords } from './settingChangeWords.tsx';

function StatusTag({ status }: { status: SettingChange['status'] }) {
  const { t } = useLingui();
  const words = { pending: t`Waiting for a second operator`, applied: t`Approved and applied`, rejected: t`Rejected` };
  const color = { pending: 'gold', applied: 'success', rejected: 'error' }[status];
  return <Tag color={color}>{words[status] ?? status}</Tag>;
}

function ChangeLines({ words }: { words: ChangeWords }) {
  return (
    <div data-testid="setting-change-summary">
      {words.lines.map((line, index) => <div key={index} className="admin-amount">{line}</div>)}
    </div>
  );
}

function Operator({ id, mine }: { id: string | null; mine: boolean }) {
  const { t } = useLingui();
  if (id === null) return <>—</>;
  return <span>{t`Operator #${id}`}{mine && <Tag style={{ marginLeft: 8 }}>{t`You`}</Tag>}</span>;
}

const OperatorTime = ({ ms }: { ms: number | null }) => <Typography.Text type="secondary" className="admin-time">{formatTime(ms)}</Typography.Text>;

/** A decided change: applied or rejected, by whom and when, and the reason given. */
function Decided({ change, mine }: { change: SettingChange; mine: boolean }) {
  return (
    <div>
      <StatusTag status={change.status} />
      <div><Operator id={change.decidedBy} mine={mine} /> <OperatorTime ms={change.decidedAt} /></div>
      {change.reason && <Typography.Text type="secondary" data-testid="setting-change-reason">{change.reason}</Typography.Text>}
    </div>
  );
}

/** The decision buttons of a pending change: approve and reject, or, for the one who asked, withdraw. */
function Decide({ change, mine, words, onReject, onFailure }: {
  change: SettingChange; mine: boolean; words: ChangeWords; onReject(change: SettingChange): void; onFailure(text: string): void;
}) {
  const { t } = useLingui();
  const { message, modal } = App.useApp();
  const [approve] = useApproveSettingChangeMutation();
  const setting = words.setting;
  if (mine) {
    return (
      <Space orientation="vertical" size={4}>
        <Typography.Text type="secondary" data-testid="setting-change-mine">
          {t`You asked for this: a different operator must approve it.`}
        </Typography.Text>
        <Button size="small" onClick={() => onReject(change)}>{t`Withdraw`}</Button>
      </Space>
    );
  }
  const confirm = () => modal.confirm({
    title: t`Approve this change?`,
    content: (
      <>
        <Typography.Paragraph strong>{words.target ? `${setting} · ${words.target}` : setting}</Typography.Paragraph>
        <ChangeLines words={words} />
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>{t`It takes effect as soon as you approve it.`}</Typography.Paragraph>
      </>
    ),
    okText: t`Approve`,
    onOk: async () => {
      onFailure('');
      const answer = await approve(change.id);
      if ('error' in answer) onFailure(failureMessage(answer.error));
      else void message.success(t`Change approved: it applies now.`);
    },
  });
  return (
    <Space>
      <Button size="small" danger onClick={() => onReject(change)}>{t`Reject`}</Button>
      <Button size="small" type="primary" onClick={confirm}>{t`Approve`}</Button>
    </Space>
  );
}

export function SettingChangesScreen() {
  const { t } = useLingui();
  const { message } = App.useApp();
  // Administrators and finance operators alike decide (the server's rule); only the asker may not approve.
  const { data: me } = useMeQuery();
  const [all, setAll] = useState(false);
  const [failure, setFailure] = useState('');
  const [rejecting, setRejecting] = useState<SettingChange>();
  const { data, isFetching, error, refetch } = useSettingChangesQuery({ all });
  const [reject] = useRejectSettingChangeMutation();
  const describe = useDescribeSettingChange();
  const mine = (change: SettingChange) => !!me && change.requestedBy === me.id;
  const rejectingMine = !!rejecting && mine(rejecting);
  return (
    <Card>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} data-testid="setting-changes-help"
        title={t`A change that would make the house pay more (a higher two-operator threshold, a product put on sale or given higher limits, a higher welfare reward, VIP bonus or team commission rate) waits here until an operator other than the administrator who asked approves it. A change that pays less applies at once. Every decision is in the audit trail.`} />
      <Space wrap style={{ marginBottom: 16 }}>
        <Switch checked={all} onChange={setAll} aria-label={t`Show decided changes too`} data-testid="setting-changes-all" />
        <Typography.Text>{t`Show decided changes too`}</Typography.Text>
        <Button onClick={() => void refetch()} loading={isFetching}>{t`Refresh`}</Button>
      </Space>
      {error && (
        <Alert type="error" showIcon role="alert" style={{ marginBottom: 16 }} title={failureMessage(error)}
          action={<Button size="small" onClick={() => void refetch()}>{t`Try again`}</Button>} />
      )}
      {failure && <Alert type="error" showIcon role="alert" closable onClose={() => setFailure('')} style={{ marginBottom: 16 }} title={failure}
        data-testid="setting-change-error" />}
      <Table<SettingChange> rowKey="id" loading={isFetching} dataSource={data ?? []} size="middle" pagination={false}
        data-testid="setting-changes-table"
        locale={{ emptyText: all ? t`No setting has been changed this way yet.` : t`Nothing is waiting for a second operator.` }}
        columns={[
          { key: 'setting', title: t`Setting`, render: (_, change) => {
            const words = describe(change);
            return <span><strong>{words.setting}</strong>{words.target && <><br /><Typography.Text type="secondary">{words.target}</Typography.Text></>}</span>;
          } },
          { key: 'change', title: t`Before → after`, render: (_, change) => <ChangeLines words={describe(change)} /> },
          { key: 'requestedBy', title: t`Asked by`, render: (_, change) => (
            <span><Operator id={change.requestedBy} mine={mine(change)} /><br /><OperatorTime ms={change.createdAt} /></span>
          ) },
          // The table fits the screen (no sideways scroll): the decision column wraps its sentences.
          { key: 'decision', title: t`Decision`, width: 260, render: (_, change) => (change.status === 'pending'
            ? <Decide change={change} mine={mine(change)} words={describe(change)} onReject={setRejecting} onFailure={setFailure} />
            : <Decided change={change} mine={!!me && change.decidedBy === me.id} />) },
        ]} />
      <ReasonModal open={!!rejecting} title={rejectingMine ? t`Withdraw this request` : t`Reject this change`} label={t`Reason`}
        okText={rejectingMine ? t`Withdraw` : t`Reject`} maxLength={300} onCancel={() => setRejecting(undefined)} onSubmit={async (reason) => {
          const answer = await reject({ id: rejecting!.id, reason });
          if ('error' in answer) return failureMessage(answer.error);
          void message.success(t`Change rejected: the setting stays as it was.`);
          setRejecting(undefined);
          return undefined;
        }} />
    </Card>
  );
}
