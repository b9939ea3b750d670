// The operator's own authenticator: replace its secret (a lost or shared phone, a routine change).
// "New secret" asks the server for one (nothing changes yet) and shows it as a QR code and as text;
// the operator adds it to the authenticator app and confirms with a code of the new secret and one
// of the current secret. Then the new secret is the only one that logs in and every other session
// of the operator is over. The QR library is imported when a code is drawn.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Form, Input, Space, Steps, Typography } from 'antd';
import type { OperatorTotpStart } from '../../api/contract/security.ts';
import { useMeQuery } from '../api.ts';
import { failureMessage } from '../errors.ts';
import { formatTime } from '../format.ts';
import { useConfirmTotpRotationMutation, useStartTotpRotationMutation } from '../identityApi.ts';

function SecretQr({ uri, label }: { uri: string; label: string }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let current = true;
    import('qrcode').then(async (module) => {
      const qr = module.default ?? (module as unknown as typeof module.default);
      const url = await qr.toDataURL(uri, { width: 200, margin: 2, errorCorrectionLevel: 'M' });
      if (current) setSrc(url);
    }).catch((error: unknown) => console.warn('[qr] not drawn', error));
    return () => {
      current = false;
    };
  }, [uri]);
  return src ? <img src={src} width={200} height={200} alt={label} data-testid="totp-qr" /> : <div style={{ width: 200, height: 200 }} />;
}

interface ConfirmFields { code: string; currentCode: string }
const codeRule = (text: string) => ({ pattern: /^[0-9]{6}$/, message: text });

export function OperatorSecurityScreen() {
  const { t } = useLingui();
  const { message } = App.useApp();
  const { data: me } = useMeQuery();
  const [start, { isLoading: starting }] = useStartTotpRotationMutation();
  const [confirm, { isLoading: confirming }] = useConfirmTotpRotationMutation();
  const [pending, setPending] = useState<OperatorTotpStart>();
  const [failure, setFailure] = useState('');
  const [done, setDone] = useState<number>();
  const [form] = Form.useForm<ConfirmFields>();
  const begin = async () => {
    setFailure('');
    setDone(undefined);
    const answer = await start();
    if ('error' in answer) {
      setFailure(failureMessage(answer.error));
      return;
    }
    form.resetFields();
    setPending(answer.data);
  };
  const finish = async ({ code, currentCode }: ConfirmFields) => {
    setFailure('');
    const answer = await confirm({ ticket: pending!.ticket, code, currentCode });
    if ('error' in answer) {
      setFailure(failureMessage(answer.error));
      return;
    }
    setPending(undefined);
    setDone(answer.data.sessionsEnded);
    void message.success(t`Your authenticator secret was replaced.`);
  };
  const expires = pending ? formatTime(pending.expiresAt) : '';
  const ended = done ?? 0;
  const email = me?.email ?? '';
  return (
    <Card style={{ maxWidth: 760 }}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>{t`My authenticator`}</Typography.Title>
      <Typography.Paragraph>
        {t`You log in to the back office with your password and a code from your authenticator app. Replace its secret if your phone was lost, replaced or anyone else may have seen the secret.`}
      </Typography.Paragraph>
      {done !== undefined && (
        <Alert type="success" showIcon style={{ marginBottom: 16 }} data-testid="totp-done"
          title={t`The new secret is active: only codes from it log in now. Other sessions ended: ${ended}.`} />
      )}
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} data-testid="totp-error" />}
      {!pending && (
        <Button type="primary" onClick={() => void begin()} loading={starting} data-testid="totp-start">{t`Set up a new secret`}</Button>
      )}
      {pending && (
        <>
          <Steps orientation="vertical" size="small" current={-1} items={[
            { title: t`Add the new secret to your authenticator app`, content: (
              <Space align="start" size="large" wrap>
                <SecretQr uri={pending.otpauthUri} label={t`QR code of the new secret for ${email}`} />
                <Space orientation="vertical">
                  <Typography.Text type="secondary">{t`Or enter this key by hand:`}</Typography.Text>
                  <Typography.Text className="admin-mono" copyable data-testid="totp-secret">{pending.secret}</Typography.Text>
                  <Typography.Text type="secondary">{t`Confirm before ${expires}, or start again.`}</Typography.Text>
                </Space>
              </Space>
            ) },
            { title: t`Confirm with a code from each secret`, content: (
              <Form form={form} layout="vertical" requiredMark={false} onFinish={(fields) => void finish(fields)} style={{ maxWidth: 360 }}>
                <Form.Item name="code" label={t`Code from the new secret`}
                  rules={[{ required: true, message: t`Enter the 6-digit code.` }, codeRule(t`Enter the 6-digit code.`)]}>
                  <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} data-testid="totp-new-code" />
                </Form.Item>
                <Form.Item name="currentCode" label={t`Code from your current secret`} extra={t`Not the one you logged in with: wait for the next code.`}
                  rules={[{ required: true, message: t`Enter the 6-digit code.` }, codeRule(t`Enter the 6-digit code.`)]}>
                  <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} data-testid="totp-current-code" />
                </Form.Item>
                <Space>
                  <Button type="primary" htmlType="submit" loading={confirming} data-testid="totp-confirm">{t`Replace the secret`}</Button>
                  <Button onClick={() => {
                    setPending(undefined);
                    setFailure('');
                  }}>{t`Cancel`}</Button>
                </Space>
              </Form>
            ) },
          ]} />
          <Alert type="warning" showIcon style={{ marginTop: 16 }}
            title={t`Until you confirm, your current secret stays the one that logs in. After you confirm, your other back-office sessions end.`} />
        </>
      )}
    </Card>
  );
}
