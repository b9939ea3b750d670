// notificationSettings (ours, issue 21): push notifications on this device. Permission is asked
// only when the user turns them on here; the categories each say what arrives (notices, trading
// results, money movements, chat replies, security alerts, price alerts). The page says when the
// browser cannot take notifications, when they are blocked, and that an iPhone delivers them only
// to the app installed to the home screen.
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { List, NoticeBar, Switch } from 'antd-mobile';
import { BellOutline } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { pushCategories, type PushCategory } from '../../api/contract/content.ts';
import { failureText } from '../../api/errorMessages.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { prepareNotificationTexts } from './notificationTexts.ts';
import {
  usePushKeyQuery, usePushStateMutation, usePushSubscribeMutation, usePushUnsubscribeMutation,
} from '../../entities/push/pushApi.ts';
import { currentSubscription, enablePush, permission, pushSupport, subscriptionBody } from '../../entities/push/webPush.ts';
import './notifications.css';

export const prepare = prepareNotificationTexts;

export default function NotificationSettingsPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const support = pushSupport();
  const [allowed, setAllowed] = useState<NotificationPermission>(permission);
  const [enabled, setEnabled] = useState(false);
  const [categories, setCategories] = useState<PushCategory[]>([...pushCategories]);
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<string>();
  const key = usePushKeyQuery(undefined, { skip: support !== 'supported' });
  const [readState] = usePushStateMutation();
  const [subscribe] = usePushSubscribeMutation();
  const [unsubscribe] = usePushUnsubscribeMutation();

  const labels: Record<PushCategory, { title: string; description: string }> = {
    notices: { title: t`Platform notices`, description: t`New notices and announcements from the platform.` },
    trading: { title: t`Trading results`, description: t`Take-profit, stop-loss, liquidation and settled options.` },
    money: { title: t`Money movements`, description: t`Deposits credited and withdrawals paid or rejected.` },
    chat: { title: t`Chat replies`, description: t`Replies from customer support.` },
    security: { title: t`Security alerts`, description: t`Changes to your account's security.` },
    price_alerts: { title: t`Price alerts`, description: t`When a price you watch crosses your level.` },
  };

  // What the server holds for this browser's subscription, if it has one.
  useEffect(() => {
    if (support !== 'supported') {
      setChecked(true);
      return;
    }
    let cancelled = false;
    void (async () => {
      try {
        const subscription = await currentSubscription();
        if (!subscription || Notification.permission !== 'granted') return;
        const state = await readState({ endpoint: subscription.endpoint }).unwrap();
        if (cancelled) return;
        setEnabled(state.subscribed);
        if (state.subscribed) setCategories(state.categories);
      } catch (failure) {
        if (!cancelled) setError(failureText(failure));
      } finally {
        if (!cancelled) setChecked(true);
      }
    })();
    return () => { cancelled = true; };
  }, [support, readState]);

  const save = useCallback(async (wanted: PushCategory[]) => {
    const publicKey = key.data?.publicKey;
    if (!publicKey) throw new Error(t`Notifications are not available right now. Please try again.`);
    const result = await enablePush(publicKey);
    setAllowed(permission());
    if (!result.ok) {
      if (result.reason === 'denied') return false;
      throw new Error(t`This browser cannot show notifications.`);
    }
    const state = await subscribe({ ...subscriptionBody(result.subscription), categories: wanted }).unwrap();
    setCategories(state.categories);
    return true;
  }, [key.data, subscribe, t]);

  const toggle = async (on: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      if (on) {
        setEnabled(await save(categories.length > 0 ? categories : [...pushCategories]));
      } else {
        const subscription = await currentSubscription();
        if (subscription) {
          await unsubscribe({ endpoint: subscription.endpoint }).unwrap();
          await subscription.unsubscribe();
        }
        setEnabled(false);
      }
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : failureText(failure));
    } finally {
      setBusy(false);
    }
  };

  const toggleCategory = async (category: PushCategory, on: boolean) => {
    const wanted = pushCategories.filter((c) => (c === category ? on : categories.includes(c)));
    setCategories(wanted);
    if (!enabled) return;
    setBusy(true);
    setError(undefined);
    try {
      await save(wanted);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : failureText(failure));
    } finally {
      setBusy(false);
    }
  };

  const blocked = support === 'supported' && allowed === 'denied';
  return (
    <div className="notifications-page" data-testid="notification-settings">
      <PageHeader title={t`Notifications`} fallback="/my" />
      {support === 'unsupported' && (
        <NoticeBar color="info" wrap data-testid="push-unsupported" content={t`This browser cannot show notifications.`} />
      )}
      {support === 'ios-not-installed' && (
        <NoticeBar color="info" wrap data-testid="push-ios-install"
          content={t`On iPhone, notifications arrive only when the app is installed to the home screen. Tap Share, then Add to Home Screen, and open the app from there.`} />
      )}
      {blocked && (
        <NoticeBar color="alert" wrap data-testid="push-denied"
          content={t`Notifications are blocked for this site. Allow them in your browser's site settings, then come back to this page.`} />
      )}
      <List header={t`This device`}>
        <List.Item prefix={<BellOutline />}
          description={enabled ? t`Notifications are on for this device.` : t`Get a notification even when the app is closed.`}
          extra={(
            <Switch checked={enabled} loading={busy || !checked} aria-label={t`Notifications on this device`} data-testid="push-switch"
              disabled={support !== 'supported' || blocked || !checked} onChange={(on) => void toggle(on)} />
          )}>
          {t`Push notifications`}
        </List.Item>
      </List>
      <List header={t`What to notify`}>
        {pushCategories.map((category) => (
          <List.Item key={category} description={labels[category].description}
            extra={(
              <Switch checked={categories.includes(category)} disabled={busy || support !== 'supported' || blocked}
                aria-label={labels[category].title} data-testid={`push-category-${category}`}
                onChange={(on) => void toggleCategory(category, on)} />
            )}>
            {labels[category].title}
          </List.Item>
        ))}
      </List>
      {error && <p className="notifications-error" role="alert">{error}</p>}
      {support !== 'ios-not-installed' && (
        <p className="notifications-note">{t`On iPhone, notifications arrive only when the app is installed to the home screen.`}</p>
      )}
      <List>
        <List.Item onClick={() => navigate('/priceAlerts')} description={t`Hear when a symbol crosses a price.`}>
          {t`Price alerts`}
        </List.Item>
      </List>
    </div>
  );
}
