import { useState } from 'react';
import { Button, Form, Input, Popup } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { failureText } from '../../api/errorMessages.ts';
import { useChangePasswordMutation } from '../auth/authApi.ts';
import { rules } from '../auth/rules.ts';
import { showToast } from '../../components/feedback.tsx';
import { FormError } from '../auth/FormError.tsx';
import { NewPasswordFields } from '../auth/NewPasswordFields.tsx';

interface Values { oldPassword: string; newPassword: string; passwordAgain: string }

/** Change login password: the current one, then the new one twice. Other sessions end. */
export function ChangePasswordPopup({ visible, onClose, onChanged }: {
  visible: boolean; onClose: () => void; onChanged: () => void;
}) {
  const { t, i18n } = useLingui();
  const [form] = Form.useForm<Values>();
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const [failure, setFailure] = useState<string>();
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} position="bottom" destroyOnClose
      bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12, maxHeight: '90vh', overflowY: 'auto' }}>
      <h2 className="popup-title">{t`Change login password`}</h2>
      <Form form={form} layout="vertical" requiredMarkStyle="none"
        onFinish={async (values: Values) => {
          setFailure(undefined);
          const result = await changePassword({ oldPassword: values.oldPassword, newPassword: values.newPassword });
          if ('error' in result) {
            setFailure(failureText(result.error));
            return;
          }
          void showToast(t`Password changed. Other devices have been logged out.`);
          form.resetFields();
          onChanged();
          onClose();
        }}
        footer={<>
          <Button block type="submit" color="primary" size="large" loading={isLoading}>{t`Save`}</Button>
          <FormError message={failure} />
        </>}>
        <Form.Item name="oldPassword" label={t`Current password`} rules={rules(i18n).password}>
          <Input type="password" autoComplete="current-password" placeholder={t`Current password`} />
        </Form.Item>
        <NewPasswordFields name="newPassword" label={t`New password`} />
      </Form>
    </Popup>
  );
}
