// Team income (issue 23): the share of the trading fees each team level pays that is credited to
// the inviter above (levels 1 to 3, at most 50 % each), saved by an administrator (a raise takes
// effect once a second operator approves it in Setting changes) and recorded in the audit trail, and
// the latest daily statement lines the team-commission job wrote (run it now from Scheduled jobs).
// Nothing here pays anyone: the job pays from the fees account.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Input, Space, Table, Typography } from 'antd';
import type { AdminTeamCommission, TeamRate } from '../../../api/contract/team.ts';
import { useMeQuery } from '../../api.ts';
import { failureMessage } from '../../errors.ts';
import { compareDecimal } from '../invest/investTexts.ts';
import { useSavedAsRequestNotice } from '../savedAsRequest.tsx';
import { commissionsPageSize, useTeamCommissionsQuery, useTeamRatesQuery, useUpdateTeamRatesMutation } from '../../teamApi.ts';

const ratePattern = /^[0-9]{1,3}(\.[0-9]{1,4})?$/;

/** Whether a rate as typed is a percentage from 0 to 50 with at most four decimals. */
export function rateValid(text: string): boolean {
  return ratePattern.test(text.trim()) && Number(text) <= 50;
}

/** Whether the rates the server answered are those sent ("20" and "20.0000" are one rate), compared exactly. */
export function ratesApplied(sent: TeamRate[], answered: TeamRate[]): boolean {
  return sent.every((rate) => {
    const now = answered.find((item) => item.level === rate.level);
    return !!now && compareDecimal(now.ratePercent, rate.ratePercent) === 0;
  });
}

function Rates() {
  const { t } = useLingui();
  const { message } = App.useApp();
  const { data: me } = useMeQuery();
  const admin = me?.role === 'admin';
  const rates = useTeamRatesQuery();
  const [update, saving] = useUpdateTeamRatesMutation();
  const savedAsRequest = useSavedAsRequestNotice();
  const [drafts, setDrafts] = useState<Record<number, string>>({});
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    if (rates.data) setDrafts(Object.fromEntries(rates.data.map((rate) => [rate.level, rate.ratePercent])));
  }, [rates.data]);
  const invalid = Object.values(drafts).some((value) => !rateValid(value));
  const save = async () => {
    setFailure(undefined);
    const sent = Object.entries(drafts).map(([level, ratePercent]) => ({ level: Number(level), ratePercent: ratePercent.trim() }));
    const answer = await update({ rates: sent });
    if ('error' in answer) setFailure(failureMessage(answer.error));
    // A raise is kept as a request (issue 38): the answer is the rates still in force.
    else if (!ratesApplied(sent, answer.data)) savedAsRequest();
    else void message.success(t`Rates saved.`);
  };
  return (
    <Card title={t`Commission rates`} style={{ marginBottom: 16 }}>
      <Typography.Paragraph type="secondary">
        {t`Each day the team-commission job credits every inviter this share of the trading fees (contract and swap fees, never simulated trades) their team members paid the day before, from the fees account. Level 1 are the users they invited, level 2 the users those invited, level 3 the next. At most 50 % per level. Every change is in the audit trail.`}
      </Typography.Paragraph>
      {!admin && me && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t`Only administrators can change these settings.`} />}
      {rates.error && <Alert type="error" showIcon role="alert" title={failureMessage(rates.error)} style={{ marginBottom: 16 }} />}
      <Space wrap align="start">
        {(rates.data ?? []).map((rate) => {
          const level = rate.level;
          const value = drafts[level] ?? '';
          return (
            <div key={level}>
              <Typography.Text>{t`Level ${level} (%)`}</Typography.Text>
              <Input value={value} disabled={!admin} inputMode="decimal" style={{ width: 120, display: 'block' }} aria-label={t`Rate of level ${level} in percent`}
                status={rateValid(value) ? undefined : 'error'} onChange={(event) => setDrafts((now) => ({ ...now, [level]: event.target.value }))} />
            </div>
          );
        })}
        {admin && <Button type="primary" disabled={invalid} loading={saving.isLoading} onClick={() => void save()} style={{ marginTop: 22 }}>{t`Save rates`}</Button>}
      </Space>
      {invalid && <Typography.Text type="danger" style={{ display: 'block', marginTop: 8 }}>{t`A rate is a percentage from 0 to 50 with at most four decimals.`}</Typography.Text>}
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginTop: 12 }} />}
    </Card>
  );
}

function Statements() {
  const { t } = useLingui();
  const [pageNo, setPageNo] = useState(1);
  const [day, setDay] = useState('');
  const [userId, setUserId] = useState('');
  const dayValid = day === '' || /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(day);
  const userValid = userId === '' || /^[1-9][0-9]{0,17}$/.test(userId);
  const query = useTeamCommissionsQuery({ pageNo, day: dayValid ? day : undefined, userId: userValid ? userId : undefined });
  return (
    <Card title={t`Latest statements`}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input placeholder="YYYY-MM-DD" aria-label={t`Day (UTC)`} value={day} status={dayValid ? undefined : 'error'} style={{ width: 140 }}
          onChange={(event) => { setDay(event.target.value.trim()); setPageNo(1); }} />
        <Input placeholder={t`User id`} aria-label={t`Credited user id`} value={userId} status={userValid ? undefined : 'error'} style={{ width: 140 }}
          onChange={(event) => { setUserId(event.target.value.trim()); setPageNo(1); }} />
      </Space>
      {query.error && <Alert type="error" showIcon role="alert" title={failureMessage(query.error)} style={{ marginBottom: 16 }} />}
      <Table<AdminTeamCommission> rowKey={(row) => `${row.day}-${row.userId}-${row.fromUserId}-${row.asset}`} loading={query.isFetching}
        dataSource={query.data?.records ?? []} size="middle" scroll={{ x: 'max-content' }} data-testid="team-commissions-table"
        locale={{ emptyText: t`No statements yet: the team-commission job writes them each day.` }}
        pagination={{ current: pageNo, pageSize: commissionsPageSize, total: query.data?.total ?? 0, onChange: setPageNo, showSizeChanger: false }}
        columns={[
          { key: 'day', title: t`Day (UTC)`, dataIndex: 'day' },
          { key: 'userId', title: t`Credited user`, dataIndex: 'userId' },
          { key: 'fromUserId', title: t`Team member`, dataIndex: 'fromUserId' },
          { key: 'level', title: t`Level`, dataIndex: 'level' },
          { key: 'fees', title: t`Fees paid`, align: 'right', render: (_, row) => `${row.fees} ${row.asset}` },
          { key: 'rate', title: t`Rate`, align: 'right', render: (_, row) => `${row.ratePercent} %` },
          { key: 'amount', title: t`Credited`, align: 'right', render: (_, row) => `${row.amount} ${row.asset}` },
        ]} />
    </Card>
  );
}

export function TeamScreen() {
  return (
    <>
      <Rates />
      <Statements />
    </>
  );
}
