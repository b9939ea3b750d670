// The e-mail-or-phone field and its code field, shared by registration and password reset.
import { Form, Input } from 'antd-mobile';
import type { FormInstance } from 'antd-mobile/es/components/form';
import { useLingui } from '@lingui/react/macro';
import type { AccountType, CodePurpose } from '../../api/contract/accounts.ts';
import { useSendEmailCodeMutation, useSendPhoneCodeMutation } from './authApi.ts';
import { CodeInput, CountryCodeInput, useCountry } from './fields.tsx';
import { rules } from './rules.ts';

export function AccountCodeFields({ form, accountType, purpose }: {
  form: FormInstance; accountType: AccountType; purpose: CodePurpose;
}) {
  const { t, i18n } = useLingui();
  const country = useCountry();
  const countryCode = country.phone_code;
  const [sendEmail] = useSendEmailCodeMutation();
  const [sendPhone] = useSendPhoneCodeMutation();
  const send = async () => {
    try {
      await form.validateFields(['account']);
    } catch {
      return undefined;
    }
    const account = String(form.getFieldValue('account')).trim();
    const result = accountType === 'email'
      ? await sendEmail({ email: account, type: purpose })
      : await sendPhone({ phone: account, countryCode, type: purpose });
    return result.data?.resendAfterSeconds;
  };
  return (
    <>
      {accountType === 'email' ? (
        <Form.Item name="account" label={t`E-mail`} rules={rules(i18n).email}>
          <Input type="email" autoComplete="email" placeholder={t`E-mail`} clearable />
        </Form.Item>
      ) : (
        <Form.Item name="account" label={t`Mobile`} rules={rules(i18n).phone(country)}>
          <CountryCodeInput inputMode="tel" autoComplete="tel-national" placeholder={t`Mobile`} />
        </Form.Item>
      )}
      <Form.Item name="code" label={t`Verification code`} rules={rules(i18n).code}>
        <CodeInput onSend={send} />
      </Form.Item>
    </>
  );
}
