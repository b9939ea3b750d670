import { useState } from 'react';
import { Button, Form } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { AccountType } from '../../api/contract/accounts.ts';
import { useResetPasswordMutation } from './authApi.ts';
import { AccountCodeFields } from './AccountCodeFields.tsx';
import { AccountTypeTabs } from './AccountTypeTabs.tsx';
import { useCountryCode } from './fields.tsx';
import { showToast } from '../../components/feedback.tsx';
import { NewPasswordFields } from './NewPasswordFields.tsx';

interface Values { account: string; code: string; password: string; passwordAgain: string }

/** Resets the password with a code sent to the account's e-mail or phone; every session ends. */
export function ForgotForm({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const [form] = Form.useForm<Values>();
  const [accountType, setAccountType] = useState<AccountType>('email');
  const countryCode = useCountryCode();
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  return (
    <>
      <AccountTypeTabs value={accountType} onChange={setAccountType} form={form} />
      <Form form={form} layout="vertical" requiredMarkStyle="none"
        onFinish={async (values: Values) => {
          const result = await resetPassword({
            accountType, account: values.account.trim(), countryCode: accountType === 'phone' ? countryCode : undefined,
            code: values.code, password: values.password,
          });
          if ('error' in result) return;
          void showToast(t`Your password has been reset. Please log in.`);
          onDone();
        }}
        footer={<Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Reset password`}</Button>}>
        <AccountCodeFields form={form} accountType={accountType} purpose="reset" />
        <NewPasswordFields name="password" label={t`New password`} />
      </Form>
    </>
  );
}
