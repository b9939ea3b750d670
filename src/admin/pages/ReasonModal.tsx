// A decision that needs words: a rejection or failure reason, or a payout reference. The text is
// required; a refusal from the server shows inside the modal, which stays open. A sensitive action
// (`codeLabel` given) also asks for a fresh 6-digit code of the operator's own authenticator.
import { useEffect, useState, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, Form, Input, Modal } from 'antd';

export function ReasonModal({ open, title, label, okText, minLength = 1, maxLength, danger = true, codeLabel, children, onCancel, onSubmit }: {
  open: boolean; title: string; label: string; okText: string; minLength?: number; maxLength: number; danger?: boolean;
  /** Asks for a code of the operator's authenticator too, under this label. */
  codeLabel?: string;
  /** Shown above the fields: what the action does. */
  children?: ReactNode;
  onCancel(): void;
  /** Resolves with an error text to show, or undefined when done. */
  onSubmit(text: string, code: string): Promise<string | undefined>;
}) {
  const { t } = useLingui();
  const [form] = Form.useForm<{ text: string; code?: string }>();
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  // Each opening starts empty: the fields unmount when the modal hides (destroyOnHidden) and take
  // their values with them (preserve={false}). Resetting the form in an effect after opening could
  // run after the operator (or a test) had already typed, and wipe the reason.
  useEffect(() => {
    if (open) setFailure('');
  }, [open]);
  const submit = async () => {
    const { text, code } = await form.validateFields();
    setBusy(true);
    const error = await onSubmit(text.trim(), code ?? '');
    setBusy(false);
    if (error) setFailure(error);
  };
  return (
    <Modal open={open} title={title} okText={okText} okButtonProps={{ danger, loading: busy }} onOk={() => void submit().catch(() => undefined)}
      onCancel={onCancel} destroyOnHidden>
      {children}
      <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item name="text" label={label} rules={[
          { required: true, whitespace: true, message: t`This field is required.` },
          { min: minLength, message: t`Write at least ${minLength} characters.` },
        ]}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 6 }} maxLength={maxLength} showCount autoFocus />
        </Form.Item>
        {codeLabel && (
          <Form.Item name="code" label={codeLabel} rules={[{ required: true, pattern: /^[0-9]{6}$/, message: t`Enter the 6-digit code.` }]}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} style={{ maxWidth: 160 }} data-testid="reason-code" />
          </Form.Item>
        )}
      </Form>
      {failure && <Alert type="error" showIcon role="alert" title={failure} />}
    </Modal>
  );
}
