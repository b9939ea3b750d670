import { Button, Form, Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { useEmailLoginMutation, usePhoneLoginMutation, useSendEmailCodeMutation, useSendPhoneCodeMutation } from './authApi.ts';
import { CodeInput, CountryCodeButton, useCountryCode } from './fields.tsx';
import { rules } from './rules.ts';
import { useCompleteLogin } from './useCompleteLogin.ts';

interface Values { account: string; code: string }

/** Log in with a code sent by e-mail or SMS. */
export function CodeLogin({ channel }: { channel: 'email' | 'phone' }) {
  const { t, i18n } = useLingui();
  const [form] = Form.useForm<Values>();
  const countryCode = useCountryCode();
  const [sendEmail] = useSendEmailCodeMutation();
  const [sendPhone] = useSendPhoneCodeMutation();
  const [emailLogin, emailState] = useEmailLoginMutation();
  const [phoneLogin, phoneState] = usePhoneLoginMutation();
  const completeLogin = useCompleteLogin();

  const send = async () => {
    try {
      await form.validateFields(['account']);
    } catch {
      return undefined;
    }
    const account = form.getFieldValue('account').trim();
    const result = channel === 'email'
      ? await sendEmail({ email: account, type: 'login' })
      : await sendPhone({ phone: account, countryCode, type: 'login' });
    return result.data?.resendAfterSeconds;
  };

  return (
    <Form form={form} layout="vertical" requiredMarkStyle="none"
      onFinish={async (values: Values) => {
        const account = values.account.trim();
        const result = channel === 'email'
          ? await emailLogin({ email: account, code: values.code })
          : await phoneLogin({ phone: account, countryCode, code: values.code });
        if (result.data) await completeLogin(result.data.token);
      }}
      footer={<Button block type="submit" color="primary" size="large"
        loading={emailState.isLoading || phoneState.isLoading}>{t`Log in`}</Button>}>
      {channel === 'email' ? (
        <Form.Item name="account" label={t`E-mail`} rules={rules(i18n).email}>
          <Input type="email" autoComplete="email" placeholder={t`E-mail`} clearable />
        </Form.Item>
      ) : (
        <Form.Item name="account" label={t`Mobile`} rules={rules(i18n).phone} extra={<CountryCodeButton />}>
          <Input inputMode="tel" autoComplete="tel-national" placeholder={t`Mobile`} clearable />
        </Form.Item>
      )}
      <Form.Item name="code" label={t`Verification code`} rules={rules(i18n).code}>
        <CodeInput onSend={send} />
      </Form.Item>
    </Form>
  );
}
