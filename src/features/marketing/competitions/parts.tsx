// What the competition pages share: the status label (spec §4 numbers), the loading and error
// blocks and the pull-to-refresh texts.
import { Button, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { CompetitionStatusCode } from '../../../api/contract/competitions.ts';
import { failureText } from '../../../api/errorMessages.ts';

export function StatusTag({ status }: { status: CompetitionStatusCode }) {
  const { t } = useLingui();
  const labels: Record<CompetitionStatusCode, string> = { 1: t`In progress`, 0: t`To be started`, [-2]: t`Ended`, [-3]: t`Exited` };
  const tone = status === 1 ? 'running' : status === 0 ? 'scheduled' : 'ended';
  return <span className={`cmp-tag cmp-tag-${tone}`} data-testid="cmp-status">{labels[status]}</span>;
}

export function usePullTexts() {
  const { t } = useLingui();
  return { pullingText: t`Pull to refresh`, canReleaseText: t`Release to refresh`, refreshingText: t`Loading...`, completeText: t`Updated` };
}

export function Loading() {
  const { t } = useLingui();
  return <div className="cmp-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Paragraph lineCount={6} animated /></div>;
}

export function LoadFailed({ error, retry, what }: { error: unknown; retry: () => void; what: string }) {
  const { t } = useLingui();
  return (
    <div className="cmp-card" role="alert">
      <p><strong>{what}</strong> {failureText(error)}</p>
      <Button color="primary" fill="outline" onClick={retry}>{t`Retry`}</Button>
    </div>
  );
}
