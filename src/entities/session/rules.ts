// Form rules for the account forms; messages are the spec §5 prompts, translated.
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { FormItemProps } from 'antd-mobile/es/components/form';
import type { CountryInfo } from '../../lib/country.ts';
import { regionName } from '../../lib/countryLabel.ts';
import { intlOf } from '../../lib/locales.ts';

type FormRule = NonNullable<FormItemProps['rules']>[number];

export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isStrongPassword = (value: string) =>
  value.length >= 8 && value.length <= 64 && /[A-Za-z]/.test(value) && /[0-9]/.test(value);

export const rules = (i18n: I18n) => ({
  email: [
    { required: true, message: i18n._(msg`Please enter your e-mail`) },
    { pattern: emailPattern, message: i18n._(msg`Please enter a valid e-mail address`) },
  ] satisfies FormRule[],
  /** A national number of the chosen country, by the rule the server applies (lib/phoneNumbers.ts). */
  phone: (country: CountryInfo) => [
    { required: true, message: i18n._(msg`Please enter your mobile number`) },
    {
      validator: async (_rule: unknown, value: string) => {
        if (!value) return;
        // Loaded with the phone field (fields.tsx), so it is there by the time anyone types.
        const { isPossiblePhoneNumber } = await import('../../lib/phoneNumbers.ts');
        if (isPossiblePhoneNumber(value, country.phone_code)) return;
        const name = regionName(country.country_code, intlOf(i18n.locale)) ?? country.english_name;
        throw new Error(i18n._(msg`Enter a valid phone number for ${name}`));
      },
    },
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
