import { Button, Form } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { PasswordInput } from '../../components/form/PasswordInput.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { useLoginMutation } from './authApi.ts';
import { CountryCodeInput, useCountryCode } from './fields.tsx';
import { rules } from './rules.ts';
import { useCompleteLogin } from './useCompleteLogin.ts';

interface Values { account: string; password: string }

// A lockout (too_many_attempts) and an address limit concern the whole form and name their wait.
const fieldsByCode: FieldsByCode = { credentials_invalid: 'password' };

/** Log in with an e-mail, a phone number (with country code) or a guest name, and a password. */
export function PasswordLogin({ initialAccount = '' }: { initialAccount?: string }) {
  const { t, i18n } = useLingui();
  const [form] = Form.useForm<Values>();
  const account = Form.useWatch('account', form) ?? initialAccount;
  const countryCode = useCountryCode();
  const [login, { isLoading }] = useLoginMutation();
  const completeLogin = useCompleteLogin();
  const failure = useFormFailure(form, fieldsByCode);
  const isPhone = /^[0-9]+$/.test(account.trim());

  return (
    <Form form={form} layout="vertical" initialValues={{ account: initialAccount }} requiredMarkStyle="none"
      onValuesChange={failure.onValuesChange}
      onFinish={async (values: Values) => {
        failure.clear();
        const result = await login({ account: values.account.trim(), password: values.password,
          countryCode: isPhone ? countryCode : undefined });
        if (result.data) await completeLogin(result.data.token);
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
