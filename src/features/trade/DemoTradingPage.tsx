// /demotrading (spec §2: outside the layout, no title, kept alive): contracts and options on the
// demo ledger's virtual funds. A banner says "Demo — virtual funds" above everything, the virtual
// balance sits under it with its reset (confirmed first; unavailable, with the reason, while demo positions are open),
// and a segmented control switches between the contract and options screens, each given `demo`
// so that nothing on this page touches real money. The route needs no login (spec §2), so a
// visitor is asked to log in here.
import { useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { Button } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { demoGrant } from '../../api/contract/trading.ts';
import { failureText } from '../../api/errorMessages.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { FormError } from '../../components/form/FormError.tsx';
import { confirmDialog, showToast } from '../../components/feedback.tsx';
import { formatDecimal } from '../../lib/number.ts';
import { intlOf } from '../../lib/locales.ts';
import { redirectRemembered, type UserState } from '../../entities/session/userSlice.ts';
import ContractTrading from './contract/ContractTrading.tsx';
import OptionsTrading from './options/OptionsTrading.tsx';
import { prepareTradeTexts } from '../../entities/trade/tradeTexts.ts';
import { useUserEvents } from './useUserEvents.ts';
import { useDemoAccountQuery, useResetDemoMutation } from '../../entities/trade/tradeApi.ts';
import './demo.css';
import { Amount } from '../../components/Amount.tsx';

export const prepare = prepareTradeTexts;

type DemoSegment = 'contracts' | 'options';

export default function DemoTradingPage() {
  // Settlements that happen by themselves (a take-profit, an expiry) show without a refresh.
  useUserEvents();
  const { t } = useLingui();
  const token = useSelector((state: { user: UserState }) => state.user.token);
  return (
    <div className="demo-page">
      <PageHeader title={t`Demo trading`} fallback="/home" />
      <p className="demo-banner" role="note">
        <strong>{t`Demo — virtual funds`}</strong>
        <span>{t`Practise with virtual USDT. Nothing here touches your real balance.`}</span>
      </p>
      {token ? <DemoTrading /> : <DemoLogin />}
    </div>
  );
}

function DemoLogin() {
  const { t, i18n } = useLingui();
  const grant = formatDecimal(demoGrant, 0, intlOf(i18n.locale));
  const dispatch = useDispatch();
  const navigate = useNavigate();
  return (
    <section className="demo-login">
      <p>{t`Log in to open your demo account with ${grant} virtual USDT.`}</p>
      <Button color="primary" onClick={() => { dispatch(redirectRemembered('/demotrading')); navigate('/login'); }}>{t`Log in`}</Button>
    </section>
  );
}

function DemoTrading() {
  const { t } = useLingui();
  const [segment, setSegment] = useState<DemoSegment>('contracts');
  const segments: Array<{ key: DemoSegment; label: string }> = [
    { key: 'contracts', label: t`Contracts` }, { key: 'options', label: t`Options` },
  ];
  return (
    <>
      <DemoAccountCard />
      <div className="demo-segments" role="tablist" aria-label={t`Demo trading`}>
        {segments.map(({ key, label }) => (
          <button key={key} type="button" role="tab" id={`demo-tab-${key}`} aria-selected={segment === key} aria-controls="demo-panel"
            className={`demo-segment${segment === key ? ' active' : ''}`} onClick={() => setSegment(key)}>{label}</button>
        ))}
      </div>
      <div id="demo-panel" role="tabpanel" aria-labelledby={`demo-tab-${segment}`}>
        {segment === 'contracts' ? <ContractTrading demo /> : <OptionsTrading demo />}
      </div>
    </>
  );
}

function DemoAccountCard() {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const account = useDemoAccountQuery();
  const [reset, resetting] = useResetDemoMutation();
  const [failure, setFailure] = useState<string>();
  const data = account.data;
  // The server refuses a reset while a demo position or order is open: say so before asking, not after.
  const resetBlocked = data !== undefined && (data.openPositions > 0 || data.openOrders > 0);

  const askReset = async () => {
    setFailure(undefined);
    const grant = formatDecimal(demoGrant, 2, intl);
    const confirmed = await confirmDialog({
      title: t`Reset the demo account?`,
      content: t`Your virtual balance returns to ${grant} USDT. Your demo history stays.`,
      confirmText: t`Reset`, cancelText: t`Cancel`,
    });
    if (!confirmed) return;
    try {
      await reset().unwrap();
      void showToast(t`Demo account reset`);
    } catch (error) {
      setFailure(failureText(error));
    }
  };

  if (!data) {
    return (
      <section className="demo-account" aria-label={t`Virtual balance`}>
        {account.isError
          ? (
            <div role="alert" className="demo-failed">
              <p>{t`The demo account could not be loaded.`} {failureText(account.error)}</p>
              <Button size="small" color="primary" fill="outline" onClick={() => void account.refetch()}>{t`Retry`}</Button>
            </div>
          )
          : <span className="demo-skeleton" role="status" aria-label={t`Loading`} />}
      </section>
    );
  }
  return (
    <section className="demo-account" aria-label={t`Virtual balance`}>
      <div className="demo-balance">
        <span>{t`Virtual balance`}</span>
        <strong data-testid="demo-balance"><Amount value={data.balance} asset="USDT" withAsset /></strong>
      </div>
      <dl className="demo-figures">
        <div><dt>{t`In use`}</dt><dd><Amount value={data.inUse} asset="USDT" withAsset /></dd></div>
        <div><dt>{t`Open positions`}</dt><dd>{data.openPositions}</dd></div>
        <div><dt>{t`Open orders`}</dt><dd>{data.openOrders}</dd></div>
      </dl>
      <Button size="small" fill="outline" loading={resetting.isLoading} disabled={resetBlocked}
        aria-describedby={resetBlocked ? 'demo-reset-blocked' : undefined} onClick={() => void askReset()}>
        {t`Reset virtual funds`}
      </Button>
      {resetBlocked && (
        <p id="demo-reset-blocked" className="form-note" data-testid="demo-reset-blocked">
          {t`Close your demo positions and wait for your demo contracts to settle before resetting.`}
        </p>
      )}
      <FormError message={failure} />
    </section>
  );
}
