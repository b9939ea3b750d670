// The holding period of VIP bonuses (issue 38): how many days a user must hold a level without a
// break before its one-time bonus is paid (0 to 90, 7 on a fresh install). A deposit withdrawn
// within the period earns nothing. Administrators change it; the change is in the audit trail.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, InputNumber, Space, Typography } from 'antd';
import { vipHoldingDaysMax } from '../../../api/contract/rewards.ts';
import { failureMessage } from '../../errors.ts';
import { useSetVipHoldingMutation, useVipHoldingQuery } from '../../rewardsApi.ts';

export function VipHoldingSetting({ admin }: { admin: boolean }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const holding = useVipHoldingQuery();
  const [save, saving] = useSetVipHoldingMutation();
  const [days, setDays] = useState<number | null>(null);
  const [failure, setFailure] = useState('');
  useEffect(() => { if (holding.data) setDays(holding.data.holdingDays); }, [holding.data]);
  const valid = days !== null && Number.isInteger(days) && days >= 0 && days <= vipHoldingDaysMax;
  return (
    <div data-testid="vip-holding" style={{ marginBottom: 12 }}>
      <Typography.Paragraph type="secondary">
        {t`A level's bonus is paid only to a verified user who has held the level without a break for this many days, and once per verified person whatever the number of accounts.`}
      </Typography.Paragraph>
      {holding.error && <Alert type="error" showIcon role="alert" title={failureMessage(holding.error)} style={{ marginBottom: 12 }} />}
      <Space wrap align="center">
        <label htmlFor="vip-holding-days">{t`Holding period (days)`}</label>
        <InputNumber id="vip-holding-days" min={0} max={vipHoldingDaysMax} precision={0} value={days} disabled={!admin}
          onChange={(value) => setDays(typeof value === 'number' ? value : null)} status={valid ? undefined : 'error'} style={{ width: 100 }} />
        {admin && <Button size="small" disabled={!valid || days === holding.data?.holdingDays} loading={saving.isLoading} onClick={async () => {
          setFailure('');
          const answer = await save({ holdingDays: days! });
          if ('error' in answer) setFailure(failureMessage(answer.error));
          else void message.success(t`Holding period saved.`);
        }}>{t`Save`}</Button>}
        {failure && <Typography.Text type="danger" role="alert">{failure}</Typography.Text>}
      </Space>
    </div>
  );
}
