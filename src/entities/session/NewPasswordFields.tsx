import { Form } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { PasswordInput } from '../../components/form/PasswordInput.tsx';
import { rules } from './rules.ts';

/** A new password and its repetition, with the strength rule shown under the field. */
export function NewPasswordFields({ name, label }: { name: string; label: string }) {
  const { t, i18n } = useLingui();
  return (
    <>
      <Form.Item name={name} label={label} rules={rules(i18n).newPassword}
        description={<span className="form-field-note">{t`8–64 characters with at least one letter and one digit.`}</span>}>
        <PasswordInput autoComplete="new-password" placeholder={label} />
      </Form.Item>
      <Form.Item name="passwordAgain" label={t`Password again`} dependencies={[name]}
        rules={rules(i18n).passwordAgain(name)}>
        <PasswordInput autoComplete="new-password" placeholder={t`Password again`} />
      </Form.Item>
    </>
  );
}
