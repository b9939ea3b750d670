import { Segmented } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { AccountType } from '../../api/contract/accounts.ts';

export function AccountTypeTabs({ value, onChange }: { value: AccountType; onChange: (value: AccountType) => void }) {
  const { t } = useLingui();
  return (
    <Segmented block value={value} onChange={(next) => onChange(next as AccountType)} aria-label={t`Account type`}
      options={[{ label: t`E-mail`, value: 'email' }, { label: t`Mobile`, value: 'phone' }]} />
  );
}
