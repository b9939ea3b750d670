// The withdrawal password (spec §7 setWithdrawPassword / changeWithdrawPassword): set with a code
// sent to the account's own e-mail (or phone, for a phone account), which is also how a forgotten
// one is replaced; changed with the old one. The code goes to the address the account already
// has (the server refuses any other), so the form shows where, masked, and asks for nothing else.
import { useState } from 'react';
import { Button, Form } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { UserInfo } from '../../api/contract/accounts.ts';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { CodeInput } from '../../components/form/CodeInput.tsx';
import { PasswordInput } from '../../components/form/PasswordInput.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { maskEmail, maskPhone } from '../../lib/maskAddress.ts';
import { useSendEmailCodeMutation, useSendPhoneCodeMutation } from '../../entities/session/authApi.ts';
import { isStrongPassword } from '../../entities/session/rules.ts';
import { useChangeWithdrawPasswordMutation, useSetWithdrawPasswordMutation } from '../../entities/wallet/walletApi.ts';

/** Setting: a refusal of the code or the password under its field. */
export const setPasswordFieldsByCode: FieldsByCode = {
  code_invalid: 'code', code_expired: 'code', password_weak: 'password', password_common: 'password', withdraw_password_no_contact: 'code',
  // The server refuses a withdrawal password equal to the login password (issue 19).
  withdraw_password_same_as_login: 'password',
};
/** A refusal of a code send goes under the code field, beside the button that was pressed. */
const sendFieldsByCode: FieldsByCode = {};
/** Changing: a wrong or throttled old password under it, a weak or unchanged new one under that. */
export const changePasswordFieldsByCode: FieldsByCode = {
  withdraw_password_invalid: 'oldPassword', too_many_attempts: 'oldPassword', withdraw_password_required: 'oldPassword',
  password_weak: 'newPassword', password_common: 'newPassword', password_unchanged: 'newPassword',
  withdraw_password_same_as_login: 'newPassword',
};

/** Where the account's codes go: its e-mail, else its phone; a guest account has neither. */
export function codeContact(user: Pick<UserInfo, 'email' | 'phone' | 'countryCode'>):
  { channel: 'email'; email: string; shown: string } | { channel: 'sms'; phone: string; countryCode: string; shown: string } | undefined {
  if (user.email) return { channel: 'email', email: user.email, shown: maskEmail(user.email) };
  if (user.phone && user.countryCode) {
    return { channel: 'sms', phone: user.phone, countryCode: user.countryCode, shown: maskPhone(user.countryCode, user.phone) };
  }
  return undefined;
}

interface SetValues { code?: string; password?: string; confirm?: string }
interface ChangeValues { oldPassword?: string; newPassword?: string; confirm?: string }

/** Sets (or replaces a forgotten) withdrawal password with a code to the account's own address. */
function SetPasswordForm({ user, onDone }: { user: UserInfo; onDone: () => void }) {
  const { t } = useLingui();
  const [form] = Form.useForm<SetValues>();
  const failure = useFormFailure(form, setPasswordFieldsByCode);
  const [setPassword, { isLoading }] = useSetWithdrawPasswordMutation();
  const [sendEmail] = useSendEmailCodeMutation();
  const [sendPhone] = useSendPhoneCodeMutation();
  const [sent, setSent] = useState(false);
  const contact = codeContact(user);
  const send = async () => {
    if (!contact) return undefined;
    failure.clear();
    const result = contact.channel === 'email'
      ? await sendEmail({ email: contact.email, type: 'withdrawPassword' })
      : await sendPhone({ phone: contact.phone, countryCode: contact.countryCode, type: 'withdrawPassword' });
    if ('error' in result) {
      failure.show(result.error, { fieldsByCode: sendFieldsByCode, fallbackField: 'code' });
      const error = result.error as { error?: string; retryAfterSeconds?: number };
      return error.error === 'code_send_too_soon' ? error.retryAfterSeconds : undefined;
    }
    setSent(true);
    return result.data.resendAfterSeconds;
  };
  if (!contact) {
    return <p className="form-error" role="alert">{t`Your account has no e-mail or phone to send the code to.`}</p>;
  }
  const where = contact.shown;
  return (
    <Form form={form} layout="vertical" requiredMarkStyle="none" onValuesChange={failure.onValuesChange}
      onFinish={async (values: SetValues) => {
        failure.clear();
        const result = await setPassword({ password: values.password ?? '', code: (values.code ?? '').trim() });
        if ('error' in result) {
          failure.show(result.error);
          return;
        }
        onDone();
      }}
      footer={<>
        <Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Set withdrawal password`}</Button>
        <FormError {...failure.placed} />
      </>}>
      <Form.Item name="code" label={t`Verification code`}
        description={sent ? <span className="form-field-note" role="status">{t`Code sent to ${where}`}</span>
          : <span className="form-field-note">{t`The code goes to ${where}.`}</span>}
        rules={[{ required: true, message: t`Please enter the code.` }, { pattern: /^\s*[0-9]{6}\s*$/, message: t`The code has 6 digits.` }]}>
        <CodeInput onSend={send} placeholder={t`6-digit code`} />
      </Form.Item>
      <NewPasswordItems name="password" label={t`Withdrawal password`} />
    </Form>
  );
}

/** The new password and its repetition, with the strength rule the server applies. */
function NewPasswordItems({ name, label }: { name: 'password' | 'newPassword'; label: string }) {
  const { t } = useLingui();
  return (
    <>
      <Form.Item name={name} label={label} description={<span className="form-field-note">{t`Not your login password: 8–64 characters with a letter and a digit.`}</span>}
        rules={[{ required: true, message: t`Please enter a password.` }, {
          validator: async (_rule, value?: string) => {
            if (value && !isStrongPassword(value)) throw new Error(t`The password must be 8–64 characters with at least one letter and one digit.`);
          },
        }]}>
        <PasswordInput placeholder={label} autoComplete="new-password" maxLength={64} />
      </Form.Item>
      <Form.Item name="confirm" label={t`Repeat the password`} dependencies={[name]}
        rules={[{ required: true, message: t`Please enter the password again.` }, ({ getFieldValue }) => ({
          validator: async (_rule, value?: string) => {
            if (value && value !== getFieldValue(name)) throw new Error(t`The two passwords do not match.`);
          },
        })]}>
        <PasswordInput placeholder={t`Repeat the password`} autoComplete="new-password" maxLength={64} />
      </Form.Item>
    </>
  );
}

/** Changes the withdrawal password with the old one. */
function ChangePasswordForm({ onDone, onForgot }: { onDone: () => void; onForgot: () => void }) {
  const { t } = useLingui();
  const [form] = Form.useForm<ChangeValues>();
  const failure = useFormFailure(form, changePasswordFieldsByCode);
  const [change, { isLoading }] = useChangeWithdrawPasswordMutation();
  return (
    <Form form={form} layout="vertical" requiredMarkStyle="none" onValuesChange={failure.onValuesChange}
      onFinish={async (values: ChangeValues) => {
        failure.clear();
        const result = await change({ oldPassword: values.oldPassword ?? '', newPassword: values.newPassword ?? '' });
        if ('error' in result) {
          failure.show(result.error);
          return;
        }
        onDone();
      }}
      footer={<>
        <Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Change withdrawal password`}</Button>
        <FormError {...failure.placed} />
        <button type="button" className="link-button" onClick={onForgot}>{t`Forgot it? Set a new one with a code`}</button>
      </>}>
      <Form.Item name="oldPassword" label={t`Current withdrawal password`} rules={[{ required: true, message: t`Please enter a password.` }]}>
        <PasswordInput placeholder={t`Current withdrawal password`} autoComplete="current-password" maxLength={64} />
      </Form.Item>
      <NewPasswordItems name="newPassword" label={t`New withdrawal password`} />
    </Form>
  );
}

/** Set when none is set (or when the user forgot it), else change. */
export function WithdrawPasswordForm({ user, onDone }: { user: UserInfo; onDone: (action: 'set' | 'change') => void }) {
  const [forgot, setForgot] = useState(false);
  if (!user.hasWithdrawPassword || forgot) return <SetPasswordForm user={user} onDone={() => onDone('set')} />;
  return <ChangePasswordForm onDone={() => onDone('change')} onForgot={() => setForgot(true)} />;
}
