import { useState } from 'react';
import { Button, Form } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { PasswordInput } from '../../components/form/PasswordInput.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import type { ApiError } from '../../api/baseQuery.ts';
import { useLoginMutation } from '../../entities/session/authApi.ts';
import { CountryCodeInput, useCountryCode } from './fields.tsx';
import { GoogleCodeStep } from './GoogleCodeStep.tsx';
import { loginTicketOf, useAskSecondStep } from './secondStep.ts';
import { rules } from '../../entities/session/rules.ts';
import { useCompleteLogin } from './useCompleteLogin.ts';

interface Values { account: string; password: string }

// A lockout (too_many_attempts) and an address limit concern the whole form and name their wait.
const fieldsByCode: FieldsByCode = { credentials_invalid: 'password' };

export interface PasswordCredentials { account: string; password: string; countryCode?: string }

/**
 * Log in with an e-mail, a phone number (with country code) or a guest name, and a password. A
 * second step without a ticket goes to `onSecondStep` (the login page shows it in place of its
 * tabs, under its heading), or is shown here when no one takes it.
 */
export function PasswordLogin({ initialAccount = '', onSecondStep }: {
  initialAccount?: string;
  onSecondStep?: (credentials: PasswordCredentials) => void;
}) {
  const { t, i18n } = useLingui();
  const [form] = Form.useForm<Values>();
  const account = Form.useWatch('account', form) ?? initialAccount;
  const countryCode = useCountryCode();
  const [login, { isLoading }] = useLoginMutation();
  const completeLogin = useCompleteLogin();
  const askSecondStep = useAskSecondStep();
  const failure = useFormFailure(form, fieldsByCode);
  const isPhone = /^[0-9]+$/.test(account.trim());
  // A bound account's right password is answered google_code_required, with a login ticket from our
  // server (the second step on the login page); without one, the second step keeps the password in memory only.
  const [secondStep, setSecondStep] = useState<PasswordCredentials>();

  if (secondStep) return <GoogleCodeStep {...secondStep} onBack={() => setSecondStep(undefined)} />;

  return (
    <Form form={form} layout="vertical" initialValues={{ account: initialAccount }} requiredMarkStyle="none"
      onValuesChange={failure.onValuesChange}
      onFinish={async (values: Values) => {
        failure.clear();
        const credentials = { account: values.account.trim(), password: values.password,
          countryCode: isPhone ? countryCode : undefined };
        const result = await login(credentials);
        const loginTicket = loginTicketOf(result.error);
        if (result.data) await completeLogin(result.data.token);
        else if (loginTicket) askSecondStep(loginTicket);
        else if ((result.error as ApiError | undefined)?.kind === 'api'
          && (result.error as { error?: string }).error === 'google_code_required') (onSecondStep ?? setSecondStep)(credentials);
        else failure.show(result.error);
      }}
      footer={<>
        <Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Log in`}</Button>
        <FormError {...failure.placed} />
      </>}>
      <Form.Item name="account" label={t`E-mail, mobile or account`}
        rules={[{ required: true, message: t`Please enter your e-mail or mobile` }]}>
        <CountryCodeInput withCountryCode={isPhone} autoComplete="username" placeholder={t`E-mail, mobile or account`} />
      </Form.Item>
      <Form.Item name="password" label={t`Password`} rules={rules(i18n).password}>
        <PasswordInput autoComplete="current-password" placeholder={t`Password`} />
      </Form.Item>
    </Form>
  );
}
