import { useState } from 'react';
import { Button, Form, Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { failureText } from '../../api/errorMessages.ts';
import { useLoginMutation } from './authApi.ts';
import { CountryCodeInput, useCountryCode } from './fields.tsx';
import { FormError } from './FormError.tsx';
import { rules } from './rules.ts';
import { useCompleteLogin } from './useCompleteLogin.ts';

interface Values { account: string; password: string }

/** Log in with an e-mail, a phone number (with country code) or a guest name, and a password. */
export function PasswordLogin({ initialAccount = '' }: { initialAccount?: string }) {
  const { t, i18n } = useLingui();
  const [form] = Form.useForm<Values>();
  const account = Form.useWatch('account', form) ?? initialAccount;
  const countryCode = useCountryCode();
  const [login, { isLoading }] = useLoginMutation();
  const completeLogin = useCompleteLogin();
  const [failure, setFailure] = useState<string>();
  const isPhone = /^[0-9]+$/.test(account.trim());

  return (
    <Form form={form} layout="vertical" initialValues={{ account: initialAccount }} requiredMarkStyle="none"
      onFinish={async (values: Values) => {
        setFailure(undefined);
        const result = await login({ account: values.account.trim(), password: values.password,
          countryCode: isPhone ? countryCode : undefined });
        if (result.data) await completeLogin(result.data.token);
        else setFailure(failureText(result.error));
      }}
      footer={<>
        <Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Log in`}</Button>
        <FormError message={failure} />
      </>}>
      <Form.Item name="account" label={t`E-mail, mobile or account`}
        rules={[{ required: true, message: t`Please enter your e-mail or mobile` }]}>
        <CountryCodeInput withCountryCode={isPhone} autoComplete="username" placeholder={t`E-mail, mobile or account`} />
      </Form.Item>
      <Form.Item name="password" label={t`Password`} rules={rules(i18n).password}>
        <Input type="password" autoComplete="current-password" placeholder={t`Password`} />
      </Form.Item>
    </Form>
  );
}
