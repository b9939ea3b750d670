import { useState } from 'react';
import { Button, Form, Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { AccountType } from '../../api/contract/accounts.ts';
import { useResetPasswordMutation } from './authApi.ts';
import { AccountCodeFields } from './AccountCodeFields.tsx';
import { AccountTypeTabs } from './AccountTypeTabs.tsx';
import { useCountryCode } from './fields.tsx';
import { rules } from './rules.ts';
import { showToast } from '../../components/feedback.tsx';

interface Values { account: string; code: string; password: string; passwordAgain: string }

/** Resets the password with a code sent to the account's e-mail or phone; every session ends. */
export function ForgotForm({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useLingui();
  const [form] = Form.useForm<Values>();
  const [accountType, setAccountType] = useState<AccountType>('email');
  const countryCode = useCountryCode();
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  return (
    <>
      <AccountTypeTabs value={accountType} onChange={(value) => {
        setAccountType(value);
        form.resetFields(['account', 'code']);
      }} />
      <Form form={form} layout="vertical" requiredMarkStyle="none"
        onFinish={async (values: Values) => {
          const result = await resetPassword({
            accountType, account: values.account.trim(), countryCode: accountType === 'phone' ? countryCode : undefined,
            code: values.code, password: values.password,
          });
          if ('error' in result) return;
          void showToast(t`Your password has been reset. Please log in.`);
          onDone();
        }}
        footer={<Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Reset password`}</Button>}>
        <AccountCodeFields form={form} accountType={accountType} purpose="reset" />
        <Form.Item name="password" label={t`New password`} rules={rules(i18n).newPassword}
          help={t`8–64 characters with at least one letter and one digit.`}>
          <Input type="password" autoComplete="new-password" placeholder={t`New password`} />
        </Form.Item>
        <Form.Item name="passwordAgain" label={t`Password again`} dependencies={['password']}
          rules={rules(i18n).passwordAgain('password')}>
          <Input type="password" autoComplete="new-password" placeholder={t`Password again`} />
        </Form.Item>
      </Form>
    </>
  );
}
