// Google Authenticator in the security centre: whether it is bound, binding (QR code of the
// otpauth URI, the secret to type or copy, a code from the app to confirm) with the recovery codes
// shown this once, and unbinding (a code to the account's own e-mail or phone plus a Google or
// recovery code). Binding and unbinding end the other sessions (the server does it).
import { useState } from 'react';
import { Button, Checkbox, Form, Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { GoogleKey } from '../../api/contract/security.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { CodeInput } from '../../components/form/CodeInput.tsx';
import { FormError } from '../../components/form/FormError.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { showToast } from '../../components/feedback.tsx';
import { useGetMyUserInfoQuery, useSendEmailCodeMutation, useSendPhoneCodeMutation } from '../../entities/session/authApi.ts';
import { AddressQr } from '../../components/AddressQr.tsx';
import { formatServerTime } from '../../lib/time.ts';
import {
  useBindGoogleAuthMutation, useGenerateGoogleKeyMutation, useGoogleAuthStateQuery, useUnbindGoogleAuthMutation,
} from '../../entities/session/twoFactorApi.ts';
import { SecondFactorField, secondFactorOf, SecondFactorSwitch } from '../../entities/session/SecondFactorFields.tsx';
import './twoFactor.css';

type Stage = { kind: 'state' } | { kind: 'binding'; key: GoogleKey } | { kind: 'recovery'; codes: string[] } | { kind: 'unbinding' };

export function TwoFactorSection() {
  const { t } = useLingui();
  const state = useGoogleAuthStateQuery();
  const [stage, setStage] = useState<Stage>({ kind: 'state' });
  const [generate, generating] = useGenerateGoogleKeyMutation();
  const [startError, setStartError] = useState<unknown>();

  const title = <h2 className="two-factor-title">{t`Google Authenticator`}</h2>;
  if (stage.kind === 'binding') {
    return <section className="two-factor">{title}
      <BindForm googleKey={stage.key} onBound={(codes) => setStage({ kind: 'recovery', codes })}
        onCancel={() => setStage({ kind: 'state' })} />
    </section>;
  }
  if (stage.kind === 'recovery') {
    return <section className="two-factor">{title}
      <RecoveryCodesShown codes={stage.codes} onDone={() => { setStage({ kind: 'state' }); void state.refetch(); }} />
    </section>;
  }
  if (stage.kind === 'unbinding') {
    return <section className="two-factor">{title}
      <UnbindForm onDone={() => setStage({ kind: 'state' })} onCancel={() => setStage({ kind: 'state' })} />
    </section>;
  }
  const data = state.data;
  // boundAt is a server wall-clock string (UTC+8): shown in the device's zone like every date.
  const boundAt = formatServerTime(data?.boundAt);
  const left = data?.recoveryCodesLeft ?? 0;
  return (
    <section className="two-factor" aria-busy={state.isLoading}>
      {title}
      {data?.bound ? (<>
        <p className="two-factor-status" data-bound="true">{t`Bound since ${boundAt}`}</p>
        <p className="two-factor-hint">
          {t`Logging in, withdrawing and changing your password ask for the code from the app. Recovery codes left: ${left}`}
        </p>
        <Button block fill="outline" color="danger" onClick={() => setStage({ kind: 'unbinding' })}>{t`Unbind`}</Button>
      </>) : data ? (<>
        <p className="two-factor-status" data-bound="false">{t`Not bound`}</p>
        <p className="two-factor-hint">
          {t`Protect your account with a second step: after your password, logging in, withdrawing and changing your password ask for a 6-digit code from the Google Authenticator app.`}
        </p>
        <Button block color="primary" loading={generating.isLoading} onClick={async () => {
          setStartError(undefined);
          const result = await generate();
          if (result.data) setStage({ kind: 'binding', key: result.data });
          else setStartError(result.error);
        }}>{t`Bind Google Authenticator`}</Button>
        {startError ? <FormError message={failureMessage(startError)} /> : null}
      </>) : null}
    </section>
  );
}

const failureMessage = (error: unknown) => (error as { message?: string } | undefined)?.message;

const bindFields: FieldsByCode = { google_code_invalid: 'code' };

function BindForm({ googleKey, onBound, onCancel }: { googleKey: GoogleKey; onBound: (codes: string[]) => void; onCancel: () => void }) {
  const { t } = useLingui();
  const [form] = Form.useForm<{ code: string }>();
  const [bind, { isLoading }] = useBindGoogleAuthMutation();
  const failure = useFormFailure(form, bindFields);
  return (
    <Form form={form} layout="vertical" requiredMarkStyle="none" onValuesChange={failure.onValuesChange}
      onFinish={async ({ code }) => {
        failure.clear();
        const result = await bind({ secret: googleKey.secret, code: code.trim() });
        if (result.data) onBound(result.data.recoveryCodes);
        else failure.show(result.error);
      }}
      footer={<>
        <Button block type="submit" color="primary" loading={isLoading}>{t`Confirm and bind`}</Button>
        <FormError {...failure.placed} />
        <Button block fill="none" onClick={onCancel}>{t`Cancel`}</Button>
      </>}>
      <ol className="two-factor-steps">
        <li>{t`Install Google Authenticator (or another authenticator app) on your phone.`}</li>
        <li>{t`In the app, scan this QR code, or enter the key by hand.`}</li>
      </ol>
      <div className="two-factor-qr">
        <AddressQr value={googleKey.otpauthUri} label={t`QR code of your Google Authenticator key`} size={176} />
      </div>
      <div className="two-factor-secret">
        <code data-testid="google-secret">{googleKey.secret}</code>
        <CopyButton text={googleKey.secret} label={t`Copy the key`} />
      </div>
      <p className="two-factor-hint">{t`Keep this key secret. It is valid for 10 minutes until you confirm it.`}</p>
      <Form.Item name="code" label={t`Code from the app`}
        rules={[{ required: true, pattern: /^[0-9]{6}$/, message: t`Please enter the 6-digit code` }]}>
        <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" placeholder="123456" aria-label={t`Code from the app`} />
      </Form.Item>
    </Form>
  );
}

function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useLingui();
  const [saved, setSaved] = useState(false);
  return (
    <div className="two-factor-recovery">
      <p className="two-factor-status" data-bound="true">{t`Google Authenticator is bound. Your other devices have been logged out.`}</p>
      <p className="two-factor-hint">
        {t`Save these recovery codes somewhere safe. Each one logs you in once if you lose your phone. They are shown only now.`}
      </p>
      <ul className="two-factor-codes" aria-label={t`Recovery codes`}>
        {codes.map((code) => <li key={code}><code>{code}</code></li>)}
      </ul>
      <CopyButton text={codes.join('\n')} label={t`Copy the recovery codes`} />
      <Checkbox checked={saved} onChange={setSaved} style={{ margin: '12px 0', display: 'flex' }}>{t`I have saved them`}</Checkbox>
      <Button block color="primary" disabled={!saved} onClick={onDone}>{t`Done`}</Button>
    </div>
  );
}

interface UnbindValues { addressCode: string; googleCode?: string; recoveryCode?: string }

const unbindFields: FieldsByCode = {
  code_invalid: 'addressCode', code_expired: 'addressCode', google_code_invalid: 'googleCode',
  google_code_required: 'googleCode', recovery_code_invalid: 'recoveryCode',
};

function UnbindForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const { t } = useLingui();
  const user = useGetMyUserInfoQuery();
  const [form] = Form.useForm<UnbindValues>();
  const [useRecovery, setUseRecovery] = useState(false);
  const [sendEmail] = useSendEmailCodeMutation();
  const [sendPhone] = useSendPhoneCodeMutation();
  const [unbind, { isLoading }] = useUnbindGoogleAuthMutation();
  const failure = useFormFailure(form, unbindFields);
  const email = user.data?.email;
  const phone = user.data?.phone && user.data.countryCode ? { phone: user.data.phone, countryCode: user.data.countryCode } : undefined;
  const where = email ?? (phone ? `+${phone.countryCode} ${phone.phone}` : '');
  return (
    <Form form={form} layout="vertical" requiredMarkStyle="none" onValuesChange={failure.onValuesChange}
      onFinish={async (values: UnbindValues) => {
        failure.clear();
        const addressCode = values.addressCode.trim();
        const result = await unbind({
          ...(email ? { emailCode: addressCode } : { phoneCode: addressCode }),
          ...secondFactorOf(values, useRecovery),
        });
        if ('error' in result) {
          failure.show(result.error);
          return;
        }
        void showToast(t`Google Authenticator unbound. Your other devices have been logged out.`);
        onDone();
      }}
      footer={<>
        <Button block type="submit" color="danger" loading={isLoading}>{t`Unbind`}</Button>
        <FormError {...failure.placed} />
        <Button block fill="none" onClick={onCancel}>{t`Cancel`}</Button>
      </>}>
      <p className="two-factor-hint">{t`To unbind, enter a code sent to ${where} and a code from Google Authenticator.`}</p>
      <Form.Item name="addressCode" label={email ? t`E-mail code` : t`SMS code`}
        rules={[{ required: true, pattern: /^[0-9]{6}$/, message: t`Please enter the 6-digit code` }]}>
        <CodeInput placeholder={email ? t`E-mail code` : t`SMS code`} onSend={async () => {
          const result = email ? await sendEmail({ email, type: 'googleUnbind' })
            : phone ? await sendPhone({ ...phone, type: 'googleUnbind' }) : undefined;
          if (result && 'error' in result) failure.show(result.error);
          return result?.data?.resendAfterSeconds;
        }} />
      </Form.Item>
      <SecondFactorField useRecovery={useRecovery} />
      <SecondFactorSwitch useRecovery={useRecovery} onSwitch={() => setUseRecovery(!useRecovery)} />
    </Form>
  );
}
