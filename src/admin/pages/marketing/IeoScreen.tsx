// IEO token offerings (issue 23): the projects with their figures (price, lots on offer and
// applied, won, paid and lapsed, proceeds), a new offering (a new token asset; its seed drawn by the
// server, only the hash shown until the reveal), and the steps, each behind a confirmation: close
// (publish the application list and its hash), reveal (publish the seed and draw; the held cost
// pays the won lots and the rest is released; shown again while holds remain after a stopped
// settlement), list (lapse unpaid winners without a hold, credit paid winners through a payout job). Each project's draw is shown and
// recomputed here (src/api/ieoDraw.ts) as a user's browser does it.
import { useMemo, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Drawer, Form, Input, InputNumber, Space, Table, Tag, Typography } from 'antd';
import type { AdminIeoProject, CreateIeoBody } from '../../../api/contract/ieo.ts';
import { verifyDraw } from '../../../api/ieoDraw.ts';
import { useMeQuery } from '../../api.ts';
import { failureMessage } from '../../errors.ts';
import { formatAmount, formatTime } from '../../format.ts';
import { useAdminIeoDrawQuery, useAdminIeoProjectsQuery, useCreateIeoMutation, useIeoStepMutation } from '../../ieoApi.ts';

type Step = 'close' | 'reveal' | 'list';

/** Whether applications still hold money (issue 38: until the draw settles their holds). */
const heldNow = (row: AdminIeoProject) => row.held !== undefined && /[1-9]/.test(row.held);

export function IeoScreen() {
  const { t } = useLingui();
  const { modal, message } = App.useApp();
  const me = useMeQuery();
  const canWrite = me.data?.role === 'admin';
  const [pageNo, setPageNo] = useState(1);
  const query = useAdminIeoProjectsQuery({ pageNo });
  const [step, stepping] = useIeoStepMutation();
  const [creating, setCreating] = useState(false);
  const [failure, setFailure] = useState('');
  const [drawOf, setDrawOf] = useState<string>();

  const stepLabels: Record<Step, string> = { close: t`Close and publish the list`, reveal: t`Reveal the seed and draw`, list: t`List the token` };
  const run = (project: AdminIeoProject, which: Step) => {
    const name = project.name;
    modal.confirm({
      title: stepLabels[which],
      content: which === 'close' ? t`The applications of ${name} are fixed and published with their hash. This cannot be undone.`
        : which === 'reveal' ? t`The seed of ${name} is published and the winners drawn. This cannot be undone.`
          : t`Winners of ${name} who have not paid lapse; paid winners are credited their tokens.`,
      okText: t`Confirm`, cancelText: t`Cancel`,
      onOk: async () => {
        setFailure('');
        const answer = await step({ id: project.id, step: which });
        if ('error' in answer) setFailure(failureMessage(answer.error));
        else void message.success(t`Done.`);
      },
    });
  };

  const statusColor: Record<string, string> = { upcoming: 'default', issuing: 'processing', closed: 'warning', drawn: 'blue', listed: 'success', cancelled: 'default' };
  return (
    <Card title={t`Token offerings (IEO)`} extra={canWrite && <Button type="primary" onClick={() => setCreating(true)} data-testid="ieo-create">{t`New offering`}</Button>}>
      {failure && <Alert type="error" showIcon role="alert" title={failure} closable onClose={() => setFailure('')} />}
      {query.isError && <Alert type="error" showIcon role="alert" title={failureMessage(query.error)} />}
      <Table<AdminIeoProject> rowKey="id" loading={query.isLoading} dataSource={query.data?.records ?? []} scroll={{ x: true }}
        pagination={{ current: pageNo, total: query.data?.total ?? 0, pageSize: 20, onChange: setPageNo }}
        columns={[
          { title: t`Offering`, key: 'name', render: (_, row) => <><strong>{row.name}</strong><br />{row.token} · #{row.id}</> },
          { title: t`Status`, dataIndex: 'status', render: (status: string) => <Tag color={statusColor[status]}>{status}</Tag> },
          { title: t`Price`, key: 'price', render: (_, row) => `${formatAmount(row.estimatedPrice)} ${row.payAsset}` },
          { title: t`Lots`, key: 'lots', render: (_, { supplyLots, appliedLots, applicants }) => t`${supplyLots} on offer, ${appliedLots} applied by ${applicants}` },
          { title: t`Won / paid / lapsed`, key: 'won', render: (_, row) => `${row.wonLots} / ${row.paidLots} / ${row.lapsedLots}` },
          {
            title: t`Proceeds`, key: 'proceeds', render: (_, row) => (
              <>{formatAmount(row.proceeds)} {row.payAsset}{heldNow(row) && <><br />{t`Held from applicants`} {formatAmount(row.held!)} {row.payAsset}</>}</>
            ),
          },
          { title: t`Window`, key: 'window', render: (_, row) => <>{formatTime(row.opensAt)} – {formatTime(row.closesAt)}<br />{t`Pay by`} {formatTime(row.payDeadline)} · {t`Lists`} {formatTime(row.listsAt)}</> },
          {
            title: t`Actions`, key: 'actions', render: (_, row) => (
              <Space wrap>
                {canWrite && (row.status === 'issuing' || row.status === 'upcoming') && Date.now() >= row.closesAt && (
                  <Button size="small" loading={stepping.isLoading} onClick={() => run(row, 'close')}>{stepLabels.close}</Button>
                )}
                {/* A drawn offering still holding money had its settlement stopped: revealing again finishes it. */}
                {canWrite && (row.status === 'closed' || (row.status === 'drawn' && heldNow(row))) && <Button size="small" onClick={() => run(row, 'reveal')}>{stepLabels.reveal}</Button>}
                {canWrite && row.status === 'drawn' && Date.now() >= row.listsAt && <Button size="small" onClick={() => run(row, 'list')}>{stepLabels.list}</Button>}
                <Button size="small" type="link" onClick={() => setDrawOf(drawOf === row.id ? undefined : row.id)}>{t`Draw`}</Button>
              </Space>
            ),
          },
        ]} />
      {drawOf && <DrawPanel id={drawOf} />}
      <CreateDrawer open={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}

function DrawPanel({ id }: { id: string }) {
  const { t } = useLingui();
  const query = useAdminIeoDrawQuery(id);
  const draw = query.data;
  const check = useMemo(() => (draw?.seed && draw.list !== undefined && draw.listHash && draw.winners
    ? verifyDraw({ seed: draw.seed, seedHash: draw.seedHash, list: draw.list, listHash: draw.listHash, supplyLots: draw.supplyLots, winners: draw.winners })
    : undefined), [draw]);
  if (!draw) return query.isError ? <Alert type="error" showIcon title={failureMessage(query.error)} /> : null;
  const verified = check && !check.error && check.seedMatches && check.listMatches && check.winnersDiffer.length === 0;
  const applications = draw.applications ?? 0;
  const winners = draw.winners?.length ?? 0;
  return (
    <Card size="small" title={t`Draw of offering #${id}`} data-testid="ieo-admin-draw" style={{ marginTop: 16 }}>
      <Typography.Paragraph><strong>{t`Commitment (seed hash)`}:</strong> <code>{draw.seedHash}</code></Typography.Paragraph>
      {draw.listHash && <Typography.Paragraph><strong>{t`List hash`}:</strong> <code>{draw.listHash}</code> ({t`${applications} applications`})</Typography.Paragraph>}
      {draw.seed && <Typography.Paragraph><strong>{t`Seed`}:</strong> <code>{draw.seed}</code></Typography.Paragraph>}
      {draw.winners && <Typography.Paragraph>{t`${winners} winning applications`}</Typography.Paragraph>}
      {check && (verified
        ? <Alert type="success" showIcon title={t`Recomputed here: the seed, the list and the winners match.`} />
        : <Alert type="error" showIcon title={check.error ?? t`The recomputed draw does not match what is published.`} />)}
    </Card>
  );
}

interface CreateFields {
  token: string; tokenName: string; tokenScale: number; name: string; payAsset: string; price: string; lotSize: string;
  supplyLots: number; perUserMaxLots: number; opensAt: string; closesAt: string; payDeadline: string; listsAt: string;
}

const localInput = (ms: number) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

function CreateDrawer({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const [form] = Form.useForm<CreateFields>();
  const [create, { isLoading }] = useCreateIeoMutation();
  const [failure, setFailure] = useState('');
  const day = 86_400_000;
  const start = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
  const initial: Partial<CreateFields> = {
    tokenScale: 8, payAsset: 'USDT', supplyLots: 1000, perUserMaxLots: 10, opensAt: localInput(start), closesAt: localInput(start + 7 * day),
    payDeadline: localInput(start + 9 * day), listsAt: localInput(start + 10 * day),
  };
  const submit = async () => {
    const fields = await form.validateFields();
    const body: CreateIeoBody = {
      token: fields.token.trim().toUpperCase(), tokenName: fields.tokenName.trim(), tokenScale: fields.tokenScale, name: fields.name.trim(),
      payAsset: fields.payAsset.trim().toUpperCase(), price: fields.price.trim(), lotSize: fields.lotSize.trim(), supplyLots: fields.supplyLots,
      perUserMaxLots: fields.perUserMaxLots, opensAt: new Date(fields.opensAt).getTime(), closesAt: new Date(fields.closesAt).getTime(),
      payDeadline: new Date(fields.payDeadline).getTime(), listsAt: new Date(fields.listsAt).getTime(),
    };
    setFailure('');
    const answer = await create(body);
    if ('error' in answer) {
      setFailure(failureMessage(answer.error));
      return;
    }
    void message.success(t`Offering created. Its commitment is public now.`);
    form.resetFields();
    onClose();
  };
  const required = { required: true, message: t`Required.` };
  return (
    <Drawer open={open} title={t`New token offering`} onClose={onClose} size={Math.min(520, window.innerWidth - 48)} destroyOnHidden rootClassName="admin-drawer"
      extra={<Button type="primary" loading={isLoading} onClick={() => void submit().catch(() => undefined)} data-testid="ieo-create-save">{t`Create`}</Button>}>
      <Form form={form} layout="vertical" requiredMark={false} initialValues={initial}>
        <Form.Item name="token" label={t`Token code (a new asset)`} rules={[required, { pattern: /^[A-Za-z0-9]{2,12}$/, message: t`2 to 12 letters or digits.` }]}><Input /></Form.Item>
        <Form.Item name="tokenName" label={t`Token name`} rules={[required]}><Input maxLength={64} /></Form.Item>
        <Form.Item name="tokenScale" label={t`Token decimals`} rules={[required]}><InputNumber min={0} max={18} precision={0} /></Form.Item>
        <Form.Item name="name" label={t`Offering name`} rules={[required]}><Input maxLength={80} /></Form.Item>
        <Form.Item name="payAsset" label={t`Paid in`} rules={[required]}><Input /></Form.Item>
        <Form.Item name="price" label={t`Price of one token`} rules={[required]}><Input inputMode="decimal" /></Form.Item>
        <Form.Item name="lotSize" label={t`Tokens in one lot`} rules={[required]}><Input inputMode="decimal" /></Form.Item>
        <Form.Item name="supplyLots" label={t`Lots on offer`} rules={[required]}><InputNumber min={1} precision={0} /></Form.Item>
        <Form.Item name="perUserMaxLots" label={t`Most lots per person`} rules={[required]}><InputNumber min={1} precision={0} /></Form.Item>
        <Form.Item name="opensAt" label={t`Opens`} rules={[required]}><Input type="datetime-local" /></Form.Item>
        <Form.Item name="closesAt" label={t`Closes`} rules={[required]}><Input type="datetime-local" /></Form.Item>
        <Form.Item name="payDeadline" label={t`Payment deadline`} rules={[required]}><Input type="datetime-local" /></Form.Item>
        <Form.Item name="listsAt" label={t`Lists`} rules={[required]}><Input type="datetime-local" /></Form.Item>
      </Form>
      <Typography.Paragraph type="secondary">{t`The server draws the lottery's secret seed and publishes only its SHA-256 now; the seed is revealed after the list of applications is published.`}</Typography.Paragraph>
      {failure && <Alert type="error" showIcon role="alert" title={failure} />}
    </Drawer>
  );
}
