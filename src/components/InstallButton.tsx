import { useEffect, useState } from 'react';
import { List } from 'antd-mobile';
import { DownlandOutline } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { canInstall, isStandalone, onInstallAvailabilityChange, promptInstall } from '../lib/install.ts';

/** "Install app" when the browser offers installation and the app is not already installed. */
export function InstallListItem() {
  const { t } = useLingui();
  const [available, setAvailable] = useState(canInstall());
  useEffect(() => {
    const stop = onInstallAvailabilityChange(() => setAvailable(canInstall()));
    return () => void stop();
  }, []);
  if (!available || isStandalone()) return null;
  return (
    <List.Item prefix={<DownlandOutline />} onClick={() => void promptInstall()}>{t`Install app`}</List.Item>
  );
}
