// The e-mail-or-phone field and its code field, shared by registration, password reset and code
// login. After a send, the code field says where the code went; a refused send shows under the
// field it concerns, and a send too soon counts down the server's wait.
import { useState } from 'react';
import { Form, Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { AccountType, CodePurpose } from '../../api/contract/accounts.ts';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import type { FormFailure } from '../../components/form/useFormFailure.ts';
import { maskEmail, maskPhone } from '../../lib/maskAddress.ts';
import { useSendEmailCodeMutation, useSendPhoneCodeMutation } from '../../entities/session/authApi.ts';
import { CodeInput } from '../../components/form/CodeInput.tsx';
import { CountryCodeInput, useCountry } from './fields.tsx';
import { rules } from '../../entities/session/rules.ts';

// A malformed address concerns the account field; every other refusal of a send (a send too soon,
// a limit, the network) goes under the code field, next to the button that was pressed.
const sendFieldsByCode: FieldsByCode = { invalid_request: 'account' };

/** What a refusal of the form itself means for these two fields (each form adds its own). */
export const accountCodeFieldsByCode: FieldsByCode = { code_invalid: 'code', code_expired: 'code' };

export function AccountCodeFields({ form, accountType, purpose, failure }: {
  form: ReturnType<typeof Form.useForm>[0]; accountType: AccountType; purpose: CodePurpose; failure: FormFailure;
}) {
  const { t, i18n } = useLingui();
  const country = useCountry();
  const countryCode = country.phone_code;
  const [sendEmail] = useSendEmailCodeMutation();
  const [sendPhone] = useSendPhoneCodeMutation();
  // Where the last code went: shown while the field still holds that account (another address or
  // account type would make the note about a code the user is not waiting for).
  const [sentTo, setSentTo] = useState<{ target: string; address: string }>();
  const target = `${accountType}|${accountType === 'phone' ? countryCode : ''}|${String(Form.useWatch('account', form) ?? '').trim()}`;
  const send = async () => {
    try {
      await form.validateFields(['account']);
    } catch {
      return undefined;
    }
    const account = String(form.getFieldValue('account')).trim();
    setSentTo(undefined);
    failure.clear();
    const result = accountType === 'email'
      ? await sendEmail({ email: account, type: purpose })
      : await sendPhone({ phone: account, countryCode, type: purpose });
    if ('error' in result) {
      failure.show(result.error, { fieldsByCode: sendFieldsByCode, fallbackField: 'code' });
      // A send too soon names its wait: the button counts it down.
      const error = result.error as { error?: string; retryAfterSeconds?: number };
      return error.error === 'code_send_too_soon' ? error.retryAfterSeconds : undefined;
    }
    setSentTo({ target, address: accountType === 'email' ? maskEmail(account) : maskPhone(countryCode, account) });
    return result.data.resendAfterSeconds;
  };
  const address = sentTo?.target === target ? sentTo.address : undefined;
  const sentNote = address ? <span className="form-field-note" role="status">{t`Code sent to ${address}`}</span> : undefined;
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
      <Form.Item name="code" label={t`Verification code`} rules={rules(i18n).code} description={sentNote}>
        <CodeInput onSend={send} placeholder={t`Verification code`} />
      </Form.Item>
    </>
  );
}
