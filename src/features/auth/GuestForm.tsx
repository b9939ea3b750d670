import { Button, Form, Input } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { CopyButton } from '../../components/CopyButton.tsx';
import { useCheckAccountMutation, useGuestLoginMutation } from '../../entities/session/authApi.ts';
import { useCompleteLogin } from './useCompleteLogin.ts';
import { alertDialog } from '../../components/feedback.tsx';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';

interface Values { account: string }

// Taken between the check and the creation: the name is someone else's now.
const fieldsByCode: FieldsByCode = { account_exists: 'account', invalid_request: 'account' };

/**
 * Guest login (spec §4): an account name that exists must log in with its password; a new name
 * becomes a guest account with an initial password, shown once and changeable in the personal centre.
 */
export function GuestForm({ onExisting }: { onExisting: (account: string) => void }) {
  const { t } = useLingui();
  const [form] = Form.useForm<Values>();
  const [checkAccount, checkState] = useCheckAccountMutation();
  const [guestLogin, guestState] = useGuestLoginMutation();
  const completeLogin = useCompleteLogin();
  const failure = useFormFailure(form, fieldsByCode);

  return (
    <Form form={form} layout="vertical" requiredMarkStyle="none"
      onValuesChange={failure.onValuesChange}
      onFinish={async ({ account }: Values) => {
        failure.clear();
        const name = account.trim();
        const check = await checkAccount({ account: name });
        if (!check.data) {
          failure.show(check.error);
          return;
        }
        if (check.data.exists) {
          await alertDialog({ content: t`Account already exists, please log in with your password.`, confirmText: t`OK` });
          onExisting(name);
          return;
        }
        const result = await guestLogin({ account: name });
        if (!result.data) {
          failure.show(result.error);
          return;
        }
        const { token, initialPassword } = result.data;
        await alertDialog({
          title: t`Your initial password`,
          content: (
            <div className="initial-password">
              <p>{t`Write it down now: it is shown only once. You can change it in the personal centre.`}</p>
              <p className="initial-password-value" data-testid="initial-password">{initialPassword}</p>
              <CopyButton text={initialPassword} label={t`Copy password`} />
            </div>
          ),
          confirmText: t`I have saved it`,
        });
        await completeLogin(token);
      }}
      footer={<>
        <Button block type="submit" color="primary" size="large"
          loading={checkState.isLoading || guestState.isLoading}>{t`Continue as a guest`}</Button>
        <FormError {...failure.placed} />
      </>}>
      <p className="form-note">{t`Choose an account name. Letters, digits, dot, dash and underscore; 3 to 32 characters.`}</p>
      <Form.Item name="account" label={t`Account name`} rules={[
        { required: true, message: t`Please enter an account name` },
        { pattern: /^[A-Za-z0-9_.-]{3,32}$/, message: t`3 to 32 letters, digits, dots, dashes or underscores` },
      ]}>
        <Input autoComplete="username" placeholder={t`Account name`} clearable />
      </Form.Item>
    </Form>
  );
}
