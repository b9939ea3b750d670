import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, Form, Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { AccountType } from '../../api/contract/accounts.ts';
import { useRegisterMutation } from '../../entities/session/authApi.ts';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { AccountCodeFields, accountCodeFieldsByCode } from './AccountCodeFields.tsx';
import { AccountTypeTabs } from './AccountTypeTabs.tsx';
import { useCountryCode } from './fields.tsx';
import { useCompleteLogin } from './useCompleteLogin.ts';
import { alertDialog } from '../../components/feedback.tsx';
import { NewPasswordFields } from '../../entities/session/NewPasswordFields.tsx';

interface Values { account: string; code: string; password: string; passwordAgain: string; inviteCode?: string; agreed: boolean }

const fieldsByCode: FieldsByCode = {
  ...accountCodeFieldsByCode, account_exists: 'account', password_weak: 'password', password_common: 'password', invite_code_invalid: 'inviteCode',
};

export function RegisterForm({ onLogin }: { onLogin: () => void }) {
  const { t } = useLingui();
  const [form] = Form.useForm<Values>();
  const [params] = useSearchParams();
  const [accountType, setAccountType] = useState<AccountType>('email');
  const countryCode = useCountryCode();
  const [register, { isLoading }] = useRegisterMutation();
  const completeLogin = useCompleteLogin();
  const failure = useFormFailure(form, fieldsByCode);

  const showAgreement = () => void alertDialog({
    title: t`User agreement`,
    content: (
      <div className="agreement">
        <p>{t`Trading contracts, options and other leveraged products carries a high risk of losing money. Only trade with money you can afford to lose.`}</p>
        <p>{t`You must be of legal age in your country and give true information about yourself. One person may hold one account.`}</p>
        <p>{t`Keep your password and verification codes to yourself. We never ask for them.`}</p>
      </div>
    ),
    confirmText: t`Close`,
  });

  return (
    <>
      <AccountTypeTabs value={accountType} onChange={setAccountType} form={form} />
      <Form form={form} layout="vertical" requiredMarkStyle="none"
        initialValues={{ inviteCode: params.get('inviteCode') ?? '', agreed: false }}
        onValuesChange={failure.onValuesChange}
        onFinish={async (values: Values) => {
          failure.clear();
          const result = await register({
            accountType, account: values.account.trim(), countryCode: accountType === 'phone' ? countryCode : undefined,
            password: values.password, code: values.code, inviteCode: values.inviteCode?.trim() || undefined,
          });
          if (result.data) await completeLogin(result.data.token);
          else failure.show(result.error);
        }}
        footer={<>
          <Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Register`}</Button>
          <FormError {...failure.placed} />
          <div className="auth-links auth-links-center">
            <button type="button" className="link-button" onClick={onLogin}>{t`Already have an account? Log in`}</button>
          </div>
        </>}>
        <AccountCodeFields form={form} accountType={accountType} purpose="register" failure={failure} />
        <NewPasswordFields name="password" label={t`Password`} />
        <Form.Item name="inviteCode" label={t`Invitation code (optional)`}>
          <Input placeholder={t`Invitation code (optional)`} maxLength={12} clearable />
        </Form.Item>
        <Form.Item name="agreed" valuePropName="checked"
          rules={[{ validator: async (_rule, value) => {
            if (!value) throw new Error(t`Please read and accept the user agreement`);
          } }]}>
          <AgreementCheckbox onOpen={showAgreement} />
        </Form.Item>
      </Form>
    </>
  );
}

/** A native checkbox (antd-mobile's hides its input from assistive technology) and the agreement link. */
function AgreementCheckbox({ checked, onChange, onOpen }: {
  checked?: boolean; onChange?: (checked: boolean) => void; onOpen: () => void;
}) {
  const { t } = useLingui();
  return (
    <div className="agreement-check">
      <label>
        <input type="checkbox" checked={Boolean(checked)} onChange={(event) => onChange?.(event.target.checked)} />
        <span>{t`I have read and accept the user agreement`}</span>
      </label>
      <button type="button" className="link-button inline" onClick={onOpen}>{t`Read the user agreement`}</button>
    </div>
  );
}
