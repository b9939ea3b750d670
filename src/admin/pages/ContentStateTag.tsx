// Where a content item is in its life, as a coloured tag: scheduled, live, expired or withdrawn.
import { useLingui } from '@lingui/react/macro';
import { Tag } from 'antd';
import type { ContentState } from '../contentApi.ts';

export function ContentStateTag({ state }: { state: ContentState }) {
  const { t } = useLingui();
  if (state === 'scheduled') return <Tag color="processing" data-testid="content-state">{t`Scheduled`}</Tag>;
  if (state === 'live') return <Tag color="success" data-testid="content-state">{t`Live`}</Tag>;
  if (state === 'expired') return <Tag color="default" data-testid="content-state">{t`Expired`}</Tag>;
  return <Tag color="error" data-testid="content-state">{t`Withdrawn`}</Tag>;
}
