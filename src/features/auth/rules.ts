// Form rules for the account forms; messages are the spec §5 prompts, translated.
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { FormItemProps } from 'antd-mobile/es/components/form';

type FormRule = NonNullable<FormItemProps['rules']>[number];

export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const phonePattern = /^[0-9]{4,15}$/;
export const isStrongPassword = (value: string) =>
  value.length >= 8 && value.length <= 64 && /[A-Za-z]/.test(value) && /[0-9]/.test(value);

export const rules = (i18n: I18n) => ({
  email: [
    { required: true, message: i18n._(msg`Please enter your e-mail`) },
    { pattern: emailPattern, message: i18n._(msg`Please enter a valid e-mail address`) },
  ] satisfies FormRule[],
  phone: [
    { required: true, message: i18n._(msg`Please enter your mobile number`) },
    { pattern: phonePattern, message: i18n._(msg`Please enter a valid mobile number`) },
  ] satisfies FormRule[],
  password: [{ required: true, message: i18n._(msg`Please enter your password`) }] satisfies FormRule[],
  newPassword: [
    { required: true, message: i18n._(msg`Please enter your password`) },
    {
      validator: async (_rule: unknown, value: string) => {
        if (value && !isStrongPassword(value)) {
          throw new Error(i18n._(msg`The password must be 8–64 characters with at least one letter and one digit.`));
        }
      },
    },
  ] satisfies FormRule[],
  passwordAgain: (field: string) => [
    { required: true, message: i18n._(msg`Please enter the password again`) },
    ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
      validator: async (_rule: unknown, value: string) => {
        if (value && value !== getFieldValue(field)) throw new Error(i18n._(msg`The two passwords do not match`));
      },
    }),
  ] as FormRule[],
  code: [
    { required: true, message: i18n._(msg`Please enter the verification code`) },
    { pattern: /^[0-9]{6}$/, message: i18n._(msg`The verification code has 6 digits`) },
  ] satisfies FormRule[],
});
