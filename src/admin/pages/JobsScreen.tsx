// Scheduled jobs (issue 22): one row per daily job with what it does and a button to run it now,
// behind a confirmation. A job runs once per UTC day: a second run the same day answers the first
// run ("replayed"), so nobody is paid or charged twice. The answer (replayed or not, the counts)
// shows in the row; below, every run recorded, newest first.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Space, Table, Tag, Typography } from 'antd';
import { jobNames, type JobName, type JobRun } from '../../api/contract/products.ts';
import { useMeQuery } from '../api.ts';
import { useJobRunsQuery, useRunJobMutation } from '../investApi.ts';
import { formatTime } from '../format.ts';
import { investFailure } from './invest/investTexts.ts';

function RunState({ run }: { run: JobRun }) {
  const { t } = useLingui();
  if (run.state === 'running') return <Tag color="processing">{t`Running`}</Tag>;
  if (run.state === 'failed') return <Tag color="error">{t`Failed`}</Tag>;
  return <Tag color="success">{t`Done`}</Tag>;
}

/** What a run did: its counts and totals as the server names them. */
export function RunResult({ result }: { result: JobRun['result'] }) {
  const entries = Object.entries(result ?? {});
  if (entries.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={[4, 4]} wrap data-testid="job-result" style={{ maxWidth: 560 }}>
      {entries.map(([key, value]) => <Tag key={key} className="admin-amount">{key}: {String(value)}</Tag>)}
    </Space>
  );
}

type Outcome = { run?: JobRun; failure?: string };

export function JobsScreen() {
  const { t } = useLingui();
  const { modal } = App.useApp();
  const { data: me } = useMeQuery();
  const admin = me?.role === 'admin';
  const { data: runs, isFetching, error, refetch } = useJobRunsQuery();
  const [run] = useRunJobMutation();
  const [running, setRunning] = useState<JobName>();
  const [outcomes, setOutcomes] = useState<Partial<Record<JobName, Outcome>>>({});
  const describe: Record<JobName, string> = {
    'product-accrual': t`Pays every running product order its return for the day from the product's reserve (mining: the day's output by the published formula), each with a receipt. Frozen orders are skipped.`,
    'product-maturity': t`Returns the principal of orders that reached their term, and closes bond raises past their deadline: raised when the target is met, otherwise every subscriber is refunded in full.`,
    'loan-accrual': t`Charges every active loan its interest for the day, and the penalty rate once it is overdue.`,
    'vip-levels': t`Recomputes every user's VIP level from their total assets in USDT; levels rise and fall.`,
    'competition-settle': t`Ends the competitions whose window has closed: every entry's funds and result go back to spot, the ranking freezes and the prizes are paid by rank from the prize pool.`,
    'red-envelopes': t`Issues this week's red envelope to every user by VIP level on Monday, or on the first day of the week it runs; an envelope not opened within seven days expires.`,
    'team-commission': t`Credits every inviter the stated share of the trading fees their team paid yesterday, per level, with a statement per day.`,
  };
  const start = (name: JobName) => {
    modal.confirm({
      title: t`Run ${name} now?`,
      content: t`A job runs once per UTC day: if it already ran today, the answer is that run, and nothing is paid or charged twice.`,
      okText: t`Run now`,
      onOk: async () => {
        setRunning(name);
        const answer = await run(name);
        setRunning(undefined);
        setOutcomes((now) => ({ ...now, [name]: 'error' in answer ? { failure: investFailure(answer.error) } : { run: answer.data } }));
      },
    });
  };
  const latest = (name: JobName) => runs?.find((item) => item.name === name);
  return (
    <>
      <Card title={t`Daily jobs`}>
        <Typography.Paragraph type="secondary">
          {t`These jobs run by themselves every UTC day. Running one here runs today's run now; every run is in the audit trail.`}
        </Typography.Paragraph>
        {!admin && me && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t`Only administrators can run a job.`} />}
        <Table<JobName> rowKey={(name) => name} dataSource={[...jobNames]} pagination={false} size="middle" data-testid="jobs-table"
          columns={[
            { key: 'name', title: t`Job`, render: (_, name) => <strong className="admin-mono">{name}</strong> },
            { key: 'what', title: t`What it does`, render: (_, name) => <span style={{ display: 'block', maxWidth: 460 }}>{describe[name]}</span> },
            { key: 'last', title: t`Last run`, render: (_, name) => {
              const last = latest(name);
              return last ? <Space orientation="vertical" size={0}><span>{last.day}</span><RunState run={last} /></Space> : '—';
            } },
            { key: 'outcome', title: t`Result`, render: (_, name) => {
              const outcome = outcomes[name];
              if (!outcome) return null;
              if (outcome.failure) return <Alert type="error" showIcon role="alert" title={outcome.failure} data-testid={`job-error-${name}`} />;
              const done = outcome.run!;
              const day = done.day;
              return (
                <Space orientation="vertical" size={4} data-testid={`job-outcome-${name}`}>
                  {done.replayed
                    ? <Tag color="gold">{t`Already ran today (${day}): this is that run`}</Tag>
                    : <Tag color="success">{t`Ran for ${day}`}</Tag>}
                  <RunResult result={done.result} />
                </Space>
              );
            } },
            { key: 'run', title: '', render: (_, name) => (
              <Button type="primary" disabled={!admin} loading={running === name} onClick={() => start(name)}>{t`Run ${name} now`}</Button>
            ) },
          ]} />
      </Card>
      <Card title={t`Runs`} extra={<Button onClick={() => void refetch()} loading={isFetching}>{t`Refresh`}</Button>}>
        {error && <Alert type="error" showIcon role="alert" title={investFailure(error)} style={{ marginBottom: 16 }} />}
        <Table<JobRun> rowKey={(item) => `${item.name}:${item.day}:${item.startedAt}`} loading={isFetching} dataSource={runs ?? []} size="middle"
          pagination={{ pageSize: 20, showSizeChanger: false }} data-testid="job-runs-table" scroll={{ x: 'max-content' }}
          columns={[
            { key: 'name', title: t`Job`, render: (_, item) => <span className="admin-mono">{item.name}</span> },
            { key: 'day', title: t`Day (UTC)`, dataIndex: 'day' },
            { key: 'state', title: t`State`, render: (_, item) => <RunState run={item} /> },
            { key: 'result', title: t`Result`, render: (_, item) => <RunResult result={item.result} /> },
            { key: 'by', title: t`Started by`, render: (_, item) => {
              const operator = item.operatorId;
              return operator ? t`Operator #${operator}` : t`Schedule`;
            } },
            { key: 'started', title: t`Started`, render: (_, item) => <span className="admin-time">{formatTime(item.startedAt)}</span> },
            { key: 'finished', title: t`Finished`, render: (_, item) => <span className="admin-time">{formatTime(item.finishedAt)}</span> },
          ]} />
      </Card>
    </>
  );
}
