// A decision that needs words: a rejection or failure reason, or a payout reference. The text is
// required; a refusal from the server shows inside the modal, which stays open.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, Form, Input, Modal } from 'antd';

export function ReasonModal({ open, title, label, okText, minLength = 1, maxLength, danger = true, onCancel, onSubmit }: {
  open: boolean; title: string; label: string; okText: string; minLength?: number; maxLength: number; danger?: boolean;
  onCancel(): void;
  /** Resolves with an error text to show, or undefined when done. */
  onSubmit(text: string): Promise<string | undefined>;
}) {
  const { t } = useLingui();
  const [form] = Form.useForm<{ text: string }>();
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      form.resetFields();
      setFailure('');
    }
  }, [open, form]);
  const submit = async () => {
    const { text } = await form.validateFields();
    setBusy(true);
    const error = await onSubmit(text.trim());
    setBusy(false);
    if (error) setFailure(error);
  };
  return (
    <Modal open={open} title={title} okText={okText} okButtonProps={{ danger, loading: busy }} onOk={() => void submit().catch(() => undefined)}
      onCancel={onCancel} destroyOnHidden>
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item name="text" label={label} rules={[
          { required: true, whitespace: true, message: t`This field is required.` },
          { min: minLength, message: t`Write at least ${minLength} characters.` },
        ]}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 6 }} maxLength={maxLength} showCount autoFocus />
        </Form.Item>
      </Form>
      {failure && <Alert type="error" showIcon role="alert" title={failure} />}
    </Modal>
  );
}
