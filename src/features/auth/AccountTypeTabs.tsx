import { Segmented } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { FormInstance } from 'antd-mobile/es/components/form';
import type { AccountType } from '../../api/contract/accounts.ts';
import { ScrollHint } from '../../components/ScrollHint.tsx';

/**
 * E-mail or mobile. Switching clears the account and code fields of `form`: a code sent to an
 * e-mail address is no use for a phone number. The options share the width while their labels
 * fit, and scroll with a hint when a language's labels do not (antd-mobile's block layout would
 * cut them with an ellipsis).
 */
export function AccountTypeTabs({ value, onChange, form }: {
  value: AccountType; onChange: (value: AccountType) => void; form: FormInstance;
}) {
  const { t } = useLingui();
  return (
    <ScrollHint className="segmented-scroll">
      <Segmented value={value} aria-label={t`Account type`}
        onChange={(next) => {
          onChange(next as AccountType);
          form.resetFields(['account', 'code']);
        }}
        options={[{ label: t`E-mail`, value: 'email' }, { label: t`Mobile`, value: 'phone' }]} />
    </ScrollHint>
  );
}
