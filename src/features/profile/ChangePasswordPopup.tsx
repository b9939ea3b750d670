import { useState } from 'react';
import { Button, Form, Popup } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { useChangePasswordMutation } from '../../entities/session/authApi.ts';
import { rules } from '../../entities/session/rules.ts';
import { showToast } from '../../components/feedback.tsx';
import type { FieldsByCode } from '../../components/form/fieldErrors.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { PasswordInput } from '../../components/form/PasswordInput.tsx';
import { useFormFailure } from '../../components/form/useFormFailure.ts';
import { NewPasswordFields } from '../../entities/session/NewPasswordFields.tsx';
import { useGoogleAuthStateQuery } from '../../entities/session/twoFactorApi.ts';
import { SecondFactorField } from '../../entities/session/SecondFactorFields.tsx';

interface Values { oldPassword: string; newPassword: string; passwordAgain: string; googleCode?: string }

// A lockout (too_many_attempts) concerns the whole form and names its wait.
const fieldsByCode: FieldsByCode = {
  credentials_invalid: 'oldPassword', password_unchanged: 'newPassword', password_same_as_withdraw_password: 'newPassword', password_weak: 'newPassword', password_common: 'newPassword',
  google_code_required: 'googleCode', google_code_invalid: 'googleCode',
};

/** Change login password: the current one, then the new one twice. Other sessions end. */
export function ChangePasswordPopup({ visible, onClose, onChanged }: {
  visible: boolean; onClose: () => void; onChanged: () => void;
}) {
  const { t, i18n } = useLingui();
  const [form] = Form.useForm<Values>();
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const failure = useFormFailure(form, fieldsByCode);
  // With Google Authenticator bound, the change also needs a code from the app.
  const googleState = useGoogleAuthStateQuery({ quiet: true }, { skip: !visible }).data?.bound === true;
  const [codeAsked, setCodeAsked] = useState(false);
  const googleBound = googleState || codeAsked;
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} position="bottom" destroyOnClose
      bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12, maxHeight: '90vh', overflowY: 'auto' }}>
      <h2 className="popup-title">{t`Change login password`}</h2>
      <Form form={form} layout="vertical" requiredMarkStyle="none"
        onValuesChange={failure.onValuesChange}
        onFinish={async (values: Values) => {
          failure.clear();
          const result = await changePassword({ oldPassword: values.oldPassword, newPassword: values.newPassword,
            googleCode: googleBound ? values.googleCode?.trim() : undefined });
          if ('error' in result) {
            if ((result.error as { error?: string }).error === 'google_code_required') setCodeAsked(true);
            failure.show(result.error);
            return;
          }
          void showToast(t`Password changed. Other devices have been logged out.`);
          form.resetFields();
          onChanged();
          onClose();
        }}
        footer={<>
          <Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Save`}</Button>
          <FormError {...failure.placed} />
        </>}>
        <Form.Item name="oldPassword" label={t`Current password`} rules={rules(i18n).password}>
          <PasswordInput autoComplete="current-password" placeholder={t`Current password`} />
        </Form.Item>
        <NewPasswordFields name="newPassword" label={t`New password`} />
        {googleBound ? (
          <SecondFactorField useRecovery={false} />
        ) : null}
      </Form>
    </Popup>
  );
}
