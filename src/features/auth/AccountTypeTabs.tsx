import { Segmented } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { FormInstance } from 'antd-mobile/es/components/form';
import type { AccountType } from '../../api/contract/accounts.ts';

/**
 * E-mail or mobile. Switching clears the account and code fields of `form`: a code sent to an
 * e-mail address is no use for a phone number.
 */
export function AccountTypeTabs({ value, onChange, form }: {
  value: AccountType; onChange: (value: AccountType) => void; form: FormInstance;
}) {
  const { t } = useLingui();
  return (
    <Segmented block value={value} aria-label={t`Account type`}
      onChange={(next) => {
        onChange(next as AccountType);
        form.resetFields(['account', 'code']);
      }}
      options={[{ label: t`E-mail`, value: 'email' }, { label: t`Mobile`, value: 'phone' }]} />
  );
}
