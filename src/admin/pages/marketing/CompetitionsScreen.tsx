// Trading competitions (issue 23): create one (window, entry funds, symbols, prize table,
// participant cap; an administrator, audited), list them, and open one for its ranking (live
// while it runs, frozen at the end), what its prizes add up to against the prize pool, the
// operator fundings of the pool for it and the prize payout's progress. Funding the pool is the
// Rewards screen's (pool "prizes"); settling now is the competition-settle job (Scheduled jobs).
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Descriptions, Input, InputNumber, Space, Table, Tag, Typography } from 'antd';
import type { Competition, PrizeRow } from '../../../api/contract/competitions.ts';
import { useMeQuery } from '../../api.ts';
import { failureMessage } from '../../errors.ts';
import {
  competitionsPageSize, useAdminCompetitionQuery, useAdminCompetitionsQuery, useCreateCompetitionMutation,
} from '../../competitionsApi.ts';

const amountPattern = /^[0-9]+(\.[0-9]{1,6})?$/;

/** Parses "1-1:50, 2-3:20" into prize rows; undefined when a part is malformed. */
export function parsePrizes(text: string): PrizeRow[] | undefined {
  const parts = text.split(',').map((part) => part.trim()).filter(Boolean);
  const rows: PrizeRow[] = [];
  for (const part of parts) {
    const match = /^(\d+)(?:-(\d+))?:([0-9]+(?:\.[0-9]+)?)$/.exec(part.replace(/\s+/g, ''));
    if (!match) return undefined;
    rows.push({ fromRank: Number(match[1]), toRank: Number(match[2] ?? match[1]), amount: match[3] });
  }
  return rows;
}

/** A datetime-local value ("2026-11-27T18:00") → epoch ms in the browser's zone. */
const msOfLocal = (text: string) => (text ? new Date(text).getTime() : NaN);

function CreateForm() {
  const { t } = useLingui();
  const { message } = App.useApp();
  const [create, creating] = useCreateCompetitionMutation();
  const [name, setName] = useState('');
  const [entryAmount, setEntryAmount] = useState('100');
  const [symbols, setSymbols] = useState('BTCUSDT, ETHUSDT');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [cap, setCap] = useState<number | null>(0);
  const [prizes, setPrizes] = useState('1:500, 2-3:200, 4-10:50');
  const [failure, setFailure] = useState<string>();
  const prizeRows = parsePrizes(prizes);
  const startMs = msOfLocal(start);
  const endMs = msOfLocal(end);
  const valid = name.trim() !== '' && amountPattern.test(entryAmount.trim()) && prizeRows !== undefined
    && Number.isFinite(startMs) && Number.isFinite(endMs) && endMs > startMs && symbols.trim() !== '';
  const submit = async () => {
    if (!prizeRows) return;
    setFailure(undefined);
    const answer = await create({
      name: name.trim(), entryAmount: entryAmount.trim(), startTime: startMs, endTime: endMs, maxParticipants: cap ?? 0, prizes: prizeRows,
      symbols: symbols.split(',').map((symbol) => symbol.trim().toUpperCase()).filter(Boolean),
    });
    if ('error' in answer) setFailure(failureMessage(answer.error));
    else void message.success(t`Competition created.`);
  };
  return (
    <Card title={t`New competition`} style={{ marginBottom: 16 }}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input aria-label={t`Name`} placeholder={t`Name`} value={name} onChange={(event) => setName(event.target.value)} maxLength={80} />
        <Space wrap>
          <label>{t`Starts`} <input type="datetime-local" aria-label={t`Starts`} value={start} onChange={(event) => setStart(event.target.value)} /></label>
          <label>{t`Ends`} <input type="datetime-local" aria-label={t`Ends`} value={end} onChange={(event) => setEnd(event.target.value)} /></label>
        </Space>
        <Space wrap>
          <Input addonBefore={t`Entry funds (USDT)`} aria-label={t`Entry funds (USDT)`} value={entryAmount} onChange={(event) => setEntryAmount(event.target.value)} />
          <InputNumber addonBefore={t`Most participants (0: no limit)`} aria-label={t`Most participants (0: no limit)`} min={0} value={cap} onChange={setCap} />
        </Space>
        <Input addonBefore={t`Symbols`} aria-label={t`Symbols`} value={symbols} onChange={(event) => setSymbols(event.target.value)} />
        <Input addonBefore={t`Prizes (USDT)`} aria-label={t`Prizes (USDT)`} value={prizes} onChange={(event) => setPrizes(event.target.value)}
          status={prizeRows ? undefined : 'error'} />
        <Typography.Text type="secondary">{t`Prizes as rank or rank range and the amount each: "1:500, 2-3:200, 4-10:50".`}</Typography.Text>
        {failure && <Alert type="error" showIcon message={failure} />}
        <Button type="primary" disabled={!valid} loading={creating.isLoading} onClick={() => void submit()}>{t`Create competition`}</Button>
      </Space>
    </Card>
  );
}

function Detail({ id }: { id: string }) {
  const { t } = useLingui();
  const query = useAdminCompetitionQuery(id);
  if (query.isLoading) return <Card loading />;
  if (!query.data) return <Alert type="error" showIcon message={t`The competition could not be loaded.`} description={failureMessage(query.error)} />;
  const detail = query.data;
  const short = Number(detail.poolBalance) < Number(detail.prizesDue) && detail.state !== 'settled';
  return (
    <Card title={t`${detail.name}: ranking and prizes`} style={{ marginTop: 16 }}>
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={t`State`}>{detail.state}</Descriptions.Item>
        <Descriptions.Item label={t`Participants`}>{detail.participants}</Descriptions.Item>
        <Descriptions.Item label={t`Prizes due`}>{detail.prizesDue} {detail.prizeAsset}</Descriptions.Item>
        <Descriptions.Item label={t`Prize pool balance`}>{detail.poolBalance} {detail.prizeAsset}</Descriptions.Item>
        <Descriptions.Item label={t`Payout`}>
          {detail.payout ? t`${detail.payout.state}: ${detail.payout.targetsPosted} of ${detail.payout.targetCount} paid, ${detail.payout.amountPosted} of ${detail.payout.amountTotal}` : t`Not started`}
        </Descriptions.Item>
        <Descriptions.Item label={t`Fundings for this competition`}>
          {detail.fundings.length === 0 ? t`None` : detail.fundings.map((funding) => `${funding.amount} (${funding.status})`).join(', ')}
        </Descriptions.Item>
      </Descriptions>
      {short && (
        <Alert style={{ marginTop: 12 }} type="warning" showIcon message={t`The prize pool holds less than the prizes due: prizes are paid once it is funded.`}
          description={<a href="#/rewards">{t`Fund the prize pool on the Rewards screen`}</a>} />
      )}
      <Table style={{ marginTop: 12 }} size="small" rowKey="entryId" dataSource={detail.ranking} pagination={false}
        columns={[
          { title: t`Rank`, dataIndex: 'rank', render: (rank: number) => (rank > 0 ? rank : '—') },
          { title: t`User`, dataIndex: 'userId' },
          { title: t`Name`, dataIndex: 'name' },
          { title: t`State`, dataIndex: 'state' },
          { title: t`Equity`, dataIndex: 'equity' },
          { title: t`Return %`, dataIndex: 'returnRate' },
          { title: t`Reward`, dataIndex: 'reward' },
        ]} />
    </Card>
  );
}

export function CompetitionsScreen() {
  const { t } = useLingui();
  const { data: me } = useMeQuery();
  const [pageNo, setPageNo] = useState(1);
  const [chosen, setChosen] = useState<string>();
  const list = useAdminCompetitionsQuery({ pageNo });
  const stateTag = (competition: Competition) => <Tag>{competition.state ?? String(competition.status)}</Tag>;
  return (
    <div>
      <Typography.Title level={3}>{t`Trading competitions`}</Typography.Title>
      {me?.role === 'admin' && <CreateForm />}
      {list.isError && <Alert type="error" showIcon message={t`The competitions could not be loaded.`} description={failureMessage(list.error)} />}
      <Table size="small" rowKey="id" loading={list.isLoading} dataSource={list.data?.records ?? []}
        pagination={{ current: pageNo, pageSize: competitionsPageSize, total: list.data?.total ?? 0, onChange: setPageNo }}
        locale={{ emptyText: t`No competitions yet.` }}
        columns={[
          { title: t`Name`, dataIndex: 'name' },
          { title: t`State`, render: (_: unknown, row: Competition) => stateTag(row) },
          { title: t`Starts`, dataIndex: 'startTime', render: (ms: number) => new Date(ms).toLocaleString() },
          { title: t`Ends`, dataIndex: 'endTime', render: (ms: number) => new Date(ms).toLocaleString() },
          { title: t`Entry funds`, render: (_: unknown, row: Competition) => `${row.entryAmount} ${row.asset}` },
          { title: t`Participants`, dataIndex: 'participants' },
          { title: t`Prize money`, render: (_: unknown, row: Competition) => `${row.prizeTotal} ${row.prizeAsset}` },
          { title: '', render: (_: unknown, row: Competition) => <Button size="small" onClick={() => setChosen(row.id)}>{t`Ranking and payout`}</Button> },
        ]} />
      {chosen && <Detail id={chosen} />}
    </div>
  );
}
