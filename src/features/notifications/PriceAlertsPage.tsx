// priceAlerts (ours, issue 21): the user's price alerts. A new one names a symbol, a side (rises
// above / falls below), a price and whether it fires once or every time the price crosses; each
// arrives as a push (when notifications are on for the price alerts category) and as an internal
// message. /priceAlerts?symbol=BTCUSDT opens with that symbol chosen (the chart's header links so).
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Empty, Input, List, Picker, Selector } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { PriceAlert } from '../../api/contract/push.ts';
import { failureText } from '../../api/errorMessages.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { confirmDialog, showToast } from '../../components/feedback.tsx';
import { formatEpochMs } from '../../lib/time.ts';
import { prepareNotificationTexts } from './notificationTexts.ts';
import { useAlertSymbolsQuery, useCreatePriceAlertMutation, useDeletePriceAlertMutation, usePriceAlertsQuery } from '../../entities/push/pushApi.ts';
import './notifications.css';

export const prepare = prepareNotificationTexts;

type Direction = PriceAlert['direction'];

export default function PriceAlertsPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const symbols = useAlertSymbolsQuery();
  const alerts = usePriceAlertsQuery();
  const [create, creating] = useCreatePriceAlertMutation();
  const [remove] = useDeletePriceAlertMutation();
  const [symbol, setSymbol] = useState(params.get('symbol') ?? 'BTCUSDT');
  const [pickerOpen, setPickerOpen] = useState(false);
  const [direction, setDirection] = useState<Direction>('above');
  const [price, setPrice] = useState('');
  const [repeat, setRepeat] = useState(false);
  const [error, setError] = useState<string>();

  const tickers = useMemo(() => symbols.data ?? [], [symbols.data]);
  const chosen = tickers.find((ticker) => ticker.symbol === symbol);
  // Start from the last price, which the user moves up or down.
  useEffect(() => {
    if (chosen && price === '') setPrice(chosen.last);
  }, [chosen, price]);

  const submit = async () => {
    setError(undefined);
    const trimmed = price.trim();
    if (!/^\d{1,18}(\.\d{1,18})?$/.test(trimmed) || !/[1-9]/.test(trimmed)) {
      setError(t`Please enter a price above zero.`);
      return;
    }
    try {
      await create({ symbol, direction, price: trimmed, repeat }).unwrap();
      void alerts.refetch();
      void showToast(t`Price alert set`);
    } catch (failure) {
      setError(failureText(failure));
    }
  };

  const confirmDelete = async (alert: PriceAlert) => {
    const confirmed = await confirmDialog({ content: t`Delete this price alert?`, confirmText: t`Delete`, cancelText: t`Cancel` });
    if (!confirmed) return;
    try {
      await remove({ id: alert.id }).unwrap();
      void alerts.refetch();
    } catch (failure) {
      setError(failureText(failure));
    }
  };

  const describe = (alert: PriceAlert) => {
    const name = tickers.find((ticker) => ticker.symbol === alert.symbol)?.displayName ?? alert.symbol;
    const level = alert.price;
    return alert.direction === 'above' ? t`${name} rises above ${level}` : t`${name} falls below ${level}`;
  };
  const stateOf = (alert: PriceAlert) => {
    const fired = alert.lastFiredAt ? formatEpochMs(alert.lastFiredAt, 'dateTime') : undefined;
    if (!alert.active) return fired ? t`Fired ${fired}` : t`Off`;
    const kind = alert.repeat ? t`Every time` : t`Once`;
    return fired ? t`${kind} · last fired ${fired}` : kind;
  };

  return (
    <div className="price-alerts-page" data-testid="price-alerts">
      <PageHeader title={t`Price alerts`} fallback="/my" />
      <List header={t`New alert`} className="price-alerts-form">
        <List.Item onClick={() => setPickerOpen(true)} extra={chosen ? chosen.last : undefined} data-testid="alert-symbol">
          {chosen?.displayName ?? symbol}
        </List.Item>
        <List.Item>
          <Selector columns={2} value={[direction]} onChange={(value) => value[0] && setDirection(value[0])}
            options={[{ label: t`Rises above`, value: 'above' as Direction }, { label: t`Falls below`, value: 'below' as Direction }]} />
        </List.Item>
        <List.Item>
          <Input inputMode="decimal" value={price} onChange={setPrice} placeholder={t`Price`} aria-label={t`Price`}
            data-testid="alert-price" clearable />
        </List.Item>
        <List.Item>
          <Selector columns={2} value={[repeat ? 'repeat' : 'once']} onChange={(value) => value[0] && setRepeat(value[0] === 'repeat')}
            options={[{ label: t`Once`, value: 'once' }, { label: t`Every time`, value: 'repeat' }]} />
        </List.Item>
        <Button color="primary" loading={creating.isLoading} onClick={() => void submit()} data-testid="alert-create">
          {t`Set alert`}
        </Button>
      </List>
      {error && <p className="price-alerts-error" role="alert">{error}</p>}
      <p className="price-alerts-note">
        {t`Alerts arrive as messages, and as notifications when they are on for price alerts.`}{' '}
        <a href="#/notificationSettings" onClick={(event) => { event.preventDefault(); navigate('/notificationSettings'); }}>
          {t`Notification settings`}
        </a>
      </p>
      <List header={t`Your alerts`}>
        {(alerts.data ?? []).map((alert) => (
          <List.Item key={alert.id} className="price-alert-row" data-testid="price-alert" description={<span className="price-alert-state">{stateOf(alert)}</span>}
            extra={<Button size="mini" fill="outline" color="danger" onClick={() => void confirmDelete(alert)}>{t`Delete`}</Button>}>
            <span className="price-alert-level">{describe(alert)}</span>
          </List.Item>
        ))}
      </List>
      {alerts.data?.length === 0 && <Empty description={t`No price alerts yet`} />}
      {alerts.isError && <p className="price-alerts-error" role="alert">{failureText(alerts.error)}</p>}
      <Picker visible={pickerOpen} onClose={() => setPickerOpen(false)} value={[symbol]} title={t`Symbol`}
        confirmText={t`Done`} cancelText={t`Cancel`}
        columns={[tickers.map((ticker) => ({ label: ticker.displayName, value: ticker.symbol }))]}
        onConfirm={(value) => {
          const next = value[0];
          if (typeof next === 'string' && next !== symbol) {
            setSymbol(next);
            setPrice('');
          }
        }} />
    </div>
  );
}
