import { useState } from 'react';
import { Button, Form } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { AccountType } from '../../api/contract/accounts.ts';
import { useResetPasswordMutation } from '../../entities/session/authApi.ts';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { AccountCodeFields, accountCodeFieldsByCode } from './AccountCodeFields.tsx';
import { AccountTypeTabs } from './AccountTypeTabs.tsx';
import { useCountryCode } from './fields.tsx';
import { showToast } from '../../components/feedback.tsx';
import { NewPasswordFields } from '../../entities/session/NewPasswordFields.tsx';
import { SecondFactorField, secondFactorOf, SecondFactorSwitch, type SecondFactorValues } from '../../entities/session/SecondFactorFields.tsx';

interface Values extends SecondFactorValues { account: string; code: string; password: string; passwordAgain: string }

const fieldsByCode: FieldsByCode = {
  ...accountCodeFieldsByCode, password_weak: 'password', password_common: 'password', password_same_as_withdraw_password: 'password',
  google_code_required: 'googleCode', google_code_invalid: 'googleCode', recovery_code_invalid: 'recoveryCode',
};

/**
 * Resets the password with a code sent to the account's e-mail or phone; every session ends. An
 * account with Google Authenticator bound also needs its code (or a recovery code): the server asks
 * for it once the mailed code is right, and the form then shows the field.
 */
export function ForgotForm({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const [form] = Form.useForm<Values>();
  const [accountType, setAccountType] = useState<AccountType>('email');
  const countryCode = useCountryCode();
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const failure = useFormFailure(form, fieldsByCode);
  const [codeAsked, setCodeAsked] = useState(false);
  const [useRecovery, setUseRecovery] = useState(false);
  return (
    <>
      <AccountTypeTabs value={accountType} onChange={setAccountType} form={form} />
      <Form form={form} layout="vertical" requiredMarkStyle="none"
        onValuesChange={failure.onValuesChange}
        onFinish={async (values: Values) => {
          failure.clear();
          const result = await resetPassword({
            accountType, account: values.account.trim(), countryCode: accountType === 'phone' ? countryCode : undefined,
            code: values.code, password: values.password,
            ...(codeAsked ? secondFactorOf(values, useRecovery) : {}),
          });
          if ('error' in result) {
            if ((result.error as { error?: string }).error === 'google_code_required') setCodeAsked(true);
            failure.show(result.error);
            return;
          }
          void showToast(t`Your password has been reset. Please log in.`);
          onDone();
        }}
        footer={<>
          <Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Reset password`}</Button>
          <FormError {...failure.placed} />
        </>}>
        <AccountCodeFields form={form} accountType={accountType} purpose="reset" failure={failure} />
        <NewPasswordFields name="password" label={t`New password`} />
        {codeAsked && <SecondFactorField useRecovery={useRecovery} />}
        {codeAsked && <SecondFactorSwitch useRecovery={useRecovery} onSwitch={() => { failure.clear(); setUseRecovery(!useRecovery); }} />}
      </Form>
    </>
  );
}
