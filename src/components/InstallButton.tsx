import { List } from 'antd-mobile';
import { DownlandOutline } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { promptInstall } from '../lib/install.ts';
import { IosInstallSteps, useInstallMethod } from './InstallOffer.tsx';

/**
 * "Install app" in the personal centre, unless the app is already installed: the browser's install
 * prompt where there is one, and on iOS (which has none) the Share → Add to Home Screen steps.
 */
export function InstallListItem() {
  const { t } = useLingui();
  const method = useInstallMethod();
  if (method === 'prompt') {
    return <List.Item prefix={<DownlandOutline />} onClick={() => void promptInstall()}>{t`Install app`}</List.Item>;
  }
  if (method === 'ios') {
    return (
      <List.Item prefix={<DownlandOutline />} description={<span className="install-steps"><IosInstallSteps /></span>}>
        {t`Install app`}
      </List.Item>
    );
  }
  return null;
}
