// The notice a screen of a guarded setting (issue 38: a threshold, a product, a welfare task, a VIP
// reward, the team rates) shows after a save that pays more than before: the server keeps the
// setting as it was and stores the change as a request that a second operator approves in Setting
// changes. Shown instead of "saved", so nobody thinks the new value is in force.
import { useLingui } from '@lingui/react/macro';
import { App } from 'antd';

/**
 * The notice after a save whose change waits for a second operator (the answer's `pendingChange`),
 * shown instead of "saved": the setting is unchanged until then.
 */
export function useSavedAsRequestNotice(): () => void {
  const { t } = useLingui();
  const { message } = App.useApp();
  return () => {
    void message.info({
      content: <span data-testid="saved-as-request">{t`Saved as a request: a second operator must approve it in Setting changes.`}</span>,
      duration: 8,
    });
  };
}
