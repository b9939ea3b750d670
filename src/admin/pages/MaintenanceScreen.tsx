// Maintenance mode: what the app's 60-second status check answers now (on or off, the message,
// the expected end, the lowest app version still served), and a form to change it with a reason
// that goes into the audit trail. Turning it on asks for a confirmation first.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Descriptions, Form, Input, Space, Switch, Tag, Typography } from 'antd';
import { useMaintenanceQuery, useSetMaintenanceMutation } from '../contentApi.ts';
import { failureMessage } from '../errors.ts';
import { formatTime } from '../format.ts';
import { fromLocalInput, toLocalInput } from './ContentDraft.ts';

const versionPattern = /^[0-9]+(\.[0-9]+){0,2}$/;

interface MaintenanceForm {
  maintenance: boolean;
  message: string;
  until: string;
  minAppVersion: string;
  reason: string;
}

/** What is wrong with the form, by field; empty when it can be sent. */
export function maintenanceErrors(form: MaintenanceForm, now: number): Partial<Record<keyof MaintenanceForm, 'until' | 'past' | 'version' | 'reason' | 'message'>> {
  const errors: Partial<Record<keyof MaintenanceForm, 'until' | 'past' | 'version' | 'reason' | 'message'>> = {};
  if (form.until !== '') {
    const until = fromLocalInput(form.until);
    if (until === undefined) errors.until = 'until';
    else if (form.maintenance && until <= now) errors.until = 'past';
  }
  if (form.minAppVersion.trim() !== '' && !versionPattern.test(form.minAppVersion.trim())) errors.minAppVersion = 'version';
  if (form.message.trim().length > 500) errors.message = 'message';
  if (!form.reason.trim()) errors.reason = 'reason';
  return errors;
}

export function MaintenanceScreen() {
  const { t } = useLingui();
  const { modal, message } = App.useApp();
  const { data, error, isFetching, refetch } = useMaintenanceQuery();
  const [save, { isLoading }] = useSetMaintenanceMutation();
  const [form, setForm] = useState<MaintenanceForm>({ maintenance: false, message: '', until: '', minAppVersion: '', reason: '' });
  const [errors, setErrors] = useState<ReturnType<typeof maintenanceErrors>>({});
  const [failure, setFailure] = useState('');

  useEffect(() => {
    if (!data) return;
    setForm({ maintenance: data.maintenance, message: data.message ?? '', until: toLocalInput(data.until), minAppVersion: data.minAppVersion ?? '', reason: '' });
  }, [data]);

  const errorText = (field: keyof MaintenanceForm) => {
    const code = errors[field];
    if (code === 'until') return t`This is not a date and time.`;
    if (code === 'past') return t`The end must be in the future.`;
    if (code === 'version') return t`A version such as 2.4 or 2.4.1.`;
    if (code === 'message') return t`At most 500 characters.`;
    if (code === 'reason') return t`Say why (it goes into the audit trail).`;
    return undefined;
  };

  const send = async () => {
    const answer = await save({
      maintenance: form.maintenance,
      ...(form.message.trim() ? { message: form.message.trim() } : {}),
      ...(form.until ? { until: fromLocalInput(form.until) } : {}),
      ...(form.minAppVersion.trim() ? { minAppVersion: form.minAppVersion.trim() } : {}),
      reason: form.reason.trim(),
    });
    if ('error' in answer) {
      setFailure(failureMessage(answer.error));
      return;
    }
    void message.success(t`Maintenance settings saved.`);
    setForm((current) => ({ ...current, reason: '' }));
  };

  const submit = () => {
    setFailure('');
    const found = maintenanceErrors(form, Date.now());
    setErrors(found);
    if (Object.keys(found).length) return;
    if (form.maintenance && !data?.maintenance) {
      modal.confirm({
        title: t`Turn maintenance mode on?`,
        content: t`The app shows users the maintenance message within a minute, until it is turned off.`,
        okText: t`Turn on`,
        okButtonProps: { danger: true },
        onOk: send,
      });
      return;
    }
    void send();
  };

  return (
    <>
      <Card title={t`Now`} extra={<Button onClick={() => void refetch()} loading={isFetching}>{t`Refresh`}</Button>}>
        {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} />}
        {data && (
          <Descriptions column={1} bordered size="small" data-testid="maintenance-status" items={[
            { key: 'state', label: t`Maintenance mode`, children: data.maintenance
              ? <Tag color="error">{t`On`}</Tag> : <Tag color="success">{t`Off`}</Tag> },
            { key: 'message', label: t`Message`, children: data.message || '—' },
            { key: 'until', label: t`Expected end`, children: data.until ? formatTime(data.until) : '—' },
            { key: 'version', label: t`Lowest app version`, children: data.minAppVersion || '—' },
            ...(data.updatedAt ? [{ key: 'updated', label: t`Changed`, children: formatTime(data.updatedAt) }] : []),
            ...(data.reason ? [{ key: 'reason', label: t`Reason`, children: data.reason }] : []),
          ]} />
        )}
      </Card>
      <Card title={t`Change`}>
        <Form layout="vertical" component="div" style={{ maxWidth: 640 }}>
          <Form.Item>
            <Space>
              <Switch checked={form.maintenance} onChange={(maintenance) => setForm({ ...form, maintenance })}
                aria-label={t`Maintenance mode`} data-testid="maintenance-switch" />
              <span>{form.maintenance ? t`Maintenance mode on` : t`Maintenance mode off`}</span>
            </Space>
          </Form.Item>
          <Form.Item label={t`Message users see`} htmlFor="maintenance-message" validateStatus={errors.message ? 'error' : undefined} help={errorText('message')}>
            <Input.TextArea id="maintenance-message" value={form.message} maxLength={500} showCount autoSize={{ minRows: 2, maxRows: 5 }}
              onChange={(event) => setForm({ ...form, message: event.target.value })} />
          </Form.Item>
          <Space wrap size="large" align="start">
            <Form.Item label={t`Expected end`} htmlFor="maintenance-until" validateStatus={errors.until ? 'error' : undefined}
              help={errorText('until') ?? t`Your local time.`}>
              <Input id="maintenance-until" type="datetime-local" value={form.until} style={{ width: 220 }}
                onChange={(event) => setForm({ ...form, until: event.target.value })} />
            </Form.Item>
            <Form.Item label={t`Lowest app version`} htmlFor="maintenance-version" validateStatus={errors.minAppVersion ? 'error' : undefined}
              help={errorText('minAppVersion') ?? t`Older apps are asked to update. Empty: any.`}>
              <Input id="maintenance-version" value={form.minAppVersion} maxLength={20} style={{ width: 160 }} placeholder="2.4.0"
                onChange={(event) => setForm({ ...form, minAppVersion: event.target.value })} />
            </Form.Item>
          </Space>
          <Form.Item label={t`Reason (kept in the audit trail)`} htmlFor="maintenance-reason" required
            validateStatus={errors.reason ? 'error' : undefined} help={errorText('reason')}>
            <Input.TextArea id="maintenance-reason" value={form.reason} maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }}
              onChange={(event) => setForm({ ...form, reason: event.target.value })} />
          </Form.Item>
          {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} />}
          <Button type="primary" danger={form.maintenance && !data?.maintenance} loading={isLoading} onClick={submit} data-testid="maintenance-save">
            {t`Save`}
          </Button>
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            {t`The app checks the status every 60 seconds.`}
          </Typography.Paragraph>
        </Form>
      </Card>
    </>
  );
}
