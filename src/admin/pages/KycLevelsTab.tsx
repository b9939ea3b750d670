// What each verification level unlocks (0 unverified, 1 basic, 2 advanced): the daily withdrawal
// limit in USDT (empty: no limit), the loan limit and whether investment products are open. Admins
// edit them; finance operators read them. The form checks the amounts first (plain decimals with
// at most the currency's decimals, as the server writes them); the server checks again that a
// higher level never unlocks less than a lower one, and audits each change.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Form, Input, Modal, Switch, Table, Tag } from 'antd';
import type { KycLevel } from '../../api/contract/identity.ts';
import { parseAmount } from '../../api/contract/amounts.ts';
import { useMeQuery } from '../api.ts';
import { failureMessage } from '../errors.ts';
import { formatAmount } from '../format.ts';
import { useKycLevelsQuery, useSetKycLevelMutation } from '../identityApi.ts';

interface LevelFields { withdrawDailyLimit: string; loanLimit: string; productsOpen: boolean }

/** The decimals the server writes USDT amounts with ("1000.000000" → 6). */
const scaleOf = (levels: KycLevel[] | undefined) => {
  const sample = levels?.[0]?.loanLimit ?? '';
  return sample.includes('.') ? sample.length - sample.indexOf('.') - 1 : 6;
};

export function useLevelName() {
  const { t } = useLingui();
  return (level: number) => (level === 0 ? t`Unverified` : level === 1 ? t`Basic` : t`Advanced`);
}

function LevelModal({ item, scale, onClose }: { item?: KycLevel; scale: number; onClose(): void }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const levelName = useLevelName();
  const [form] = Form.useForm<LevelFields>();
  const [update, { isLoading }] = useSetKycLevelMutation();
  const [failure, setFailure] = useState('');
  useEffect(() => {
    if (item) {
      form.setFieldsValue({ withdrawDailyLimit: item.withdrawDailyLimit ?? '', loanLimit: item.loanLimit, productsOpen: item.productsOpen });
      setFailure('');
    }
  }, [item, form]);
  const amountRule = (optional: boolean) => ({
    validator: (_: unknown, value: string | undefined) => {
      const text = (value ?? '').trim();
      if (optional && text === '') return Promise.resolve();
      const parsed = parseAmount(text, scale);
      if (parsed.ok) return Promise.resolve();
      return Promise.reject(new Error(parsed.refusal === 'amount_too_many_decimals'
        ? t`At most ${scale} decimals.` : t`Enter a plain decimal number, such as 12.5.`));
    },
  });
  const save = async () => {
    const fields = await form.validateFields();
    setFailure('');
    const limit = fields.withdrawDailyLimit.trim();
    const answer = await update({
      level: item!.level, withdrawDailyLimit: limit === '' ? null : limit, loanLimit: fields.loanLimit.trim(), productsOpen: fields.productsOpen,
    });
    if ('error' in answer) {
      setFailure(failureMessage(answer.error));
      return;
    }
    void message.success(t`Settings saved.`);
    onClose();
  };
  const name = item ? levelName(item.level) : '';
  return (
    <Modal open={!!item} title={t`What the level "${name}" unlocks`} okText={t`Save`} okButtonProps={{ loading: isLoading }}
      onOk={() => void save().catch(() => undefined)} onCancel={onClose} destroyOnHidden>
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item name="withdrawDailyLimit" label={t`Daily withdrawal limit (USDT)`} extra={t`Leave empty for no limit.`} rules={[amountRule(true)]}>
          <Input inputMode="decimal" data-testid="level-withdraw-limit" />
        </Form.Item>
        <Form.Item name="loanLimit" label={t`Loan limit (USDT)`} rules={[amountRule(false)]}>
          <Input inputMode="decimal" data-testid="level-loan-limit" />
        </Form.Item>
        <Form.Item name="productsOpen" label={t`Investment products open`} valuePropName="checked"><Switch /></Form.Item>
      </Form>
      {failure && <Alert type="error" showIcon role="alert" title={failure} data-testid="level-error" />}
    </Modal>
  );
}

export function KycLevelsTab() {
  const { t } = useLingui();
  const admin = useMeQuery().data?.role === 'admin';
  const levelName = useLevelName();
  const { data, isFetching, error } = useKycLevelsQuery();
  const [editing, setEditing] = useState<number>();
  const scale = scaleOf(data);
  return (
    <>
      <Alert type="info" showIcon style={{ marginBottom: 16 }}
        title={t`A higher level may not unlock less than a lower one. Every change is in the audit trail.`} />
      {!admin && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t`Only administrators can change these settings.`} />}
      {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} style={{ marginBottom: 16 }} />}
      <Table<KycLevel> rowKey="level" loading={isFetching} dataSource={data ?? []} pagination={false} size="middle" data-testid="kyc-levels-table"
        columns={[
          { key: 'level', title: t`Level`, render: (_, item) => <strong>{levelName(item.level)}</strong> },
          { key: 'withdraw', title: t`Daily withdrawal limit (USDT)`, align: 'right', render: (_, item) => (item.withdrawDailyLimit === undefined
            ? <Tag>{t`No limit`}</Tag> : <span className="admin-amount">{formatAmount(item.withdrawDailyLimit)}</span>) },
          { key: 'loan', title: t`Loan limit (USDT)`, align: 'right', render: (_, item) => <span className="admin-amount">{formatAmount(item.loanLimit)}</span> },
          { key: 'products', title: t`Investment products`, render: (_, item) => (item.productsOpen
            ? <Tag color="success">{t`Open`}</Tag> : <Tag>{t`Closed`}</Tag>) },
          { key: 'edit', title: '', render: (_, item) => (admin
            ? <Button size="small" onClick={() => setEditing(item.level)} data-testid={`level-edit-${item.level}`}>{t`Edit`}</Button> : null) },
        ]} />
      <LevelModal item={data?.find((item) => item.level === editing)} scale={scale} onClose={() => setEditing(undefined)} />
    </>
  );
}
