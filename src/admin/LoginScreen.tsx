// The operator's login: account, password and the authenticator's 6-digit code. Refusals show in
// the form (a wrong code, a locked account with its wait); a session that ended says so.
import { useState, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useSelector } from 'react-redux';
import { useLoginMutation } from './api.ts';
import { failureMessage } from './errors.ts';
import { logIn, type AdminState, type AdminStore } from './store.ts';

interface LoginFields { account: string; password: string; totpCode: string }

export function LoginScreen({ store, language }: { store: AdminStore; language: ReactNode }) {
  const { t } = useLingui();
  const [login, { isLoading }] = useLoginMutation();
  const [failure, setFailure] = useState('');
  const expired = useSelector((state: AdminState) => state.session.expired);
  const [form] = Form.useForm<LoginFields>();

  const submit = async (fields: LoginFields) => {
    setFailure('');
    const answer = await login({ account: fields.account.trim(), password: fields.password, totpCode: fields.totpCode });
    if ('data' in answer && answer.data) {
      logIn(store, answer.data.token);
      return;
    }
    setFailure(failureMessage(answer.error));
    form.setFieldValue('totpCode', '');
  };

  return (
    <main className="admin-login">
      <div className="admin-login-lang">{language}</div>
      <Card title={<Typography.Title level={3} style={{ margin: 0 }}>{t`Bourse back office`}</Typography.Title>}>
        {expired && !failure && (
          <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t`Your session has ended. Please log in again.`} />
        )}
        <Form<LoginFields> form={form} layout="vertical" onFinish={submit} requiredMark={false} disabled={isLoading}>
          <Form.Item name="account" label={t`Operator e-mail`}
            rules={[{ required: true, message: t`Enter your e-mail.` }, { type: 'email', message: t`Enter a valid e-mail address.` }]}>
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item name="password" label={t`Password`} rules={[{ required: true, message: t`Enter your password.` }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item name="totpCode" label={t`Authenticator code`} extra={t`The 6-digit code your authenticator app shows now.`}
            rules={[{ required: true, message: t`Enter the 6-digit code.` }, { pattern: /^[0-9]{6}$/, message: t`The code has 6 digits.` }]}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
          </Form.Item>
          {failure && <Alert type="error" showIcon role="alert" style={{ marginBottom: 16 }} title={failure} data-testid="login-error" />}
          <Button type="primary" htmlType="submit" block loading={isLoading}>{t`Log in`}</Button>
        </Form>
      </Card>
    </main>
  );
}
