// How far a deposit or withdrawal under review has come: "1 of 2" approvals, marked when it needs
// two different operators (the same rule governs both, server/domain/core/wallet/approvals.ts).
import { useLingui } from '@lingui/react/macro';
import { Tag } from 'antd';

export function Approvals({ record }: { record: { approvals: unknown[]; approvalsRequired: number } }) {
  const { t } = useLingui();
  const count = record.approvals.length;
  const required = record.approvalsRequired;
  return (
    <span data-testid="approvals">
      {t`${count} of ${required}`}
      {required > 1 && <Tag style={{ marginLeft: 8 }}>{t`Two operators`}</Tag>}
    </span>
  );
}
