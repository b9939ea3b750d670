// The second factor's field, the one every form that asks for it uses (the login's second step,
// the password reset and change, unbinding Google Authenticator, a withdrawal and a payout
// account of a bound account): the 6-digit code from Google Authenticator, or one of the recovery
// codes, with the button that switches between them. Its texts and the messages of the Google
// Authenticator error codes are in the account catalog, which every page showing it loads.
import { Button, Form, Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import './twoFactorTexts.ts';

export interface SecondFactorValues { googleCode?: string; recoveryCode?: string }

/** The proof the form holds, trimmed: the Google code, or the recovery code when that was chosen. */
export const secondFactorOf = (values: SecondFactorValues, useRecovery: boolean) =>
  (useRecovery ? { recoveryCode: values.recoveryCode?.trim() } : { googleCode: values.googleCode?.trim() });

export function SecondFactorField({ useRecovery }: { useRecovery: boolean }) {
  const { t } = useLingui();
  return useRecovery ? (
    <Form.Item key="recovery" name="recoveryCode" label={t`Recovery code`}
      rules={[{ required: true, min: 8, message: t`Please enter a recovery code` }]}>
      <Input autoComplete="off" autoCapitalize="none" placeholder="xxxxx-xxxxx" aria-label={t`Recovery code`} />
    </Form.Item>
  ) : (
    <Form.Item key="google" name="googleCode" label={t`Google Authenticator code`}
      rules={[{ required: true, pattern: /^[0-9]{6}$/, message: t`Please enter the 6-digit code` }]}>
      <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" placeholder="123456"
        aria-label={t`Google Authenticator code`} />
    </Form.Item>
  );
}

export function SecondFactorSwitch({ useRecovery, onSwitch }: { useRecovery: boolean; onSwitch: () => void }) {
  const { t } = useLingui();
  return (
    <Button fill="none" size="small" color="primary" onClick={onSwitch}>
      {useRecovery ? t`Use the code from the app` : t`Use a recovery code`}
    </Button>
  );
}
