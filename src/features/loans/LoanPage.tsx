// jiedai (spec §2 lending): two tabs, Credit and Pledge. Credit shows the user's limit before
// anything is typed (verification level, VIP level, limit, used, available, and the way to raise it
// by verifying), then amount and days within the offer's ranges with the daily rate and the total
// interest, exact. Pledge takes a collateral asset (BTC or ETH, as the offers list), its amount and
// the loan's, and shows the loan-to-value live at the feed price against the offer's initial,
// margin-call and liquidation thresholds, refusing above the initial one. Both go on to the
// agreement (jiedaiHetong) with the figures in the query, where the user reads and signs.
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Tabs } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { LoanInfo, LoanSetting } from '../../api/contract/loans.ts';
import { failureText } from '../../api/errorMessages.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Amount } from '../../components/Amount.tsx';
import { SimulatedPricesLabel } from '../../components/SimulatedPricesLabel.tsx';
import { useTickers } from '../../entities/market/useMarketData.ts';
import { useUserBalanceQuery } from '../../entities/wallet/walletApi.ts';
import { useLoanSettingsQuery, useMyLoanInfoQuery } from './loansApi.ts';
import {
  atomicAt, checkCredit, checkDays, ltvAbove, ltvPercent, ltvZone, maxLoanText, plainAmount, scaleOf, totalInterestText,
} from './loanMath.ts';
import { prepareLoanTexts } from './loansTexts.ts';
import { LoanFailure, LoanSkeleton, LtvMeter, RatePercent } from './parts.tsx';
import './loans.css';
import { decimalsOf } from '../../lib/number.ts';


export const prepare = prepareLoanTexts;

type LoanTab = 'credit' | 'pledge';

export default function LoanPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab: LoanTab = params.get('type') === 'pledge' ? 'pledge' : 'credit';
  const settings = useLoanSettingsQuery();
  const info = useMyLoanInfoQuery();
  const orders = (
    <button type="button" className="loan-header-link" onClick={() => navigate('/jiedaiOrder')}>{t`My loans`}</button>
  );
  let body;
  if (settings.isLoading || info.isLoading) {
    body = <LoanSkeleton label={t`Loading`} />;
  } else if (!settings.data || !info.data) {
    body = (
      <LoanFailure text={t`The loan offers could not be loaded.`} error={settings.error ?? info.error}
        onRetry={() => { void settings.refetch(); void info.refetch(); }} />
    );
  } else {
    const enabled = settings.data.filter((setting) => setting.enabled);
    const credit = enabled.find((setting) => setting.type === 'credit');
    const pledges = enabled.filter((setting) => setting.type === 'pledge');
    body = (
      <Tabs activeKey={tab} onChange={(key) => setParams({ type: key }, { replace: true })} className="loan-tabs">
        <Tabs.Tab title={t`Credit`} key="credit">
          {credit ? <CreditForm setting={credit} info={info.data} /> : <p className="loan-empty">{t`Credit loans are not offered at the moment.`}</p>}
        </Tabs.Tab>
        <Tabs.Tab title={t`Pledge`} key="pledge">
          {pledges.length > 0 ? <PledgeForm settings={pledges} /> : <p className="loan-empty">{t`Pledge loans are not offered at the moment.`}</p>}
        </Tabs.Tab>
      </Tabs>
    );
  }
  return (
    <div className="loan-page">
      <PageHeader title={t`Lending`} right={orders} />
      {body}
    </div>
  );
}

function LimitCard({ info, asset }: { info: LoanInfo; asset: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const amount = (value: string) => <Amount value={value} asset={asset} withAsset />;
  return (
    <section className="loan-card loan-limit" aria-label={t`Your credit limit`}>
      <div className="loan-limit-main">
        <span>{t`Available to borrow`}</span>
        <strong data-testid="loan-available">{amount(info.creditAvailable)}</strong>
      </div>
      <dl className="loan-figures">
        <div><dt>{t`Verification level`}</dt><dd data-testid="loan-kyc-level">{info.kycLevel}</dd></div>
        <div><dt>{t`VIP level`}</dt><dd>{info.vipLevel}</dd></div>
        <div><dt>{t`Credit limit`}</dt><dd>{amount(info.creditLimit)}</dd></div>
        <div><dt>{t`Used`}</dt><dd>{amount(info.creditUsed)}</dd></div>
      </dl>
      {info.kycLevel < 2 && (
        <p className="loan-raise">
          {info.kycLevel === 0 ? t`Verify your identity to get a credit limit.` : t`Complete advanced verification to raise your limit.`}{' '}
          <button type="button" className="link-button" onClick={() => navigate(info.kycLevel === 0 ? '/shenfenRenzheng' : '/shenfenRenzhengAd')}>
            {t`Verify now`}
          </button>
        </p>
      )}
    </section>
  );
}

function CreditForm({ setting, info }: { setting: LoanSetting; info: LoanInfo }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [amount, setAmount] = useState('');
  const [days, setDays] = useState(String(setting.minDays));
  const scale = scaleOf(setting.minAmount);
  const available = info.creditAvailable;
  const check = checkCredit(amount, days, { ...setting, available });
  const daysNumber = Number(days);
  const interest = checkDays(days, setting) === 'ok' ? totalInterestText(amount, setting.dailyRate, daysNumber, scale) : undefined;
  const amountMessage = {
    empty: undefined, ok: undefined, days_invalid: undefined,
    invalid: t`Please enter an amount with at most ${scale} decimals.`,
    below_minimum: t`The minimum is ${plainAmount(setting.minAmount)} ${setting.asset}.`,
    above_maximum: t`The maximum is ${plainAmount(setting.maxAmount)} ${setting.asset}.`,
    over_limit: t`The amount is above your available limit.`,
  }[check];
  const daysMessage = amount && check === 'days_invalid' ? t`Choose from ${setting.minDays} to ${setting.maxDays} days.` : undefined;
  const open = info.pendingLoans + info.activeLoans > 0;
  const sign = () => {
    const query = new URLSearchParams({ settingId: setting.id, amount: amount.trim().replace(',', '.'), days: String(daysNumber) });
    navigate(`/jiedaiHetong?${query.toString()}`);
  };
  return (
    <div className="loan-form">
      <LimitCard info={info} asset={setting.asset} />
      {open && (
        <p className="loan-note" role="status">
          {t`You have a loan under review or running.`}{' '}
          <button type="button" className="link-button" onClick={() => navigate('/jiedaiOrder')}>{t`My loans`}</button>
        </p>
      )}
      <section className="loan-card" aria-label={t`Credit loan`}>
        <label className="loan-field">
          <span>{t`Loan amount (${setting.asset})`}</span>
          <input inputMode="decimal" autoComplete="off" value={amount} aria-invalid={amountMessage ? true : undefined}
            placeholder={`${plainAmount(setting.minAmount)} – ${plainAmount(setting.maxAmount)}`}
            onChange={(event) => setAmount(event.target.value)} />
        </label>
        <p className={`loan-help${amountMessage ? ' error' : ''}`}>{amountMessage ?? ''}</p>
        <label className="loan-field">
          <span>{t`Days`}</span>
          <input inputMode="numeric" autoComplete="off" value={days} aria-invalid={daysMessage ? true : undefined}
            placeholder={`${setting.minDays} – ${setting.maxDays}`} onChange={(event) => setDays(event.target.value)} />
        </label>
        <p className={`loan-help${daysMessage ? ' error' : ''}`}>{daysMessage ?? t`From ${setting.minDays} to ${setting.maxDays} days.`}</p>
        <dl className="loan-figures">
          <div><dt>{t`Daily rate`}</dt><dd><RatePercent rate={setting.dailyRate} /></dd></div>
          <div><dt>{t`Total interest`}</dt><dd data-testid="loan-total-interest">{interest ? <Amount value={interest} asset={setting.asset} scale={scale} exact withAsset /> : '—'}</dd></div>
          <div><dt>{t`Overdue penalty`}</dt><dd><RatePercent rate={setting.penaltyRate} /></dd></div>
        </dl>
      </section>
      <Button block color="primary" size="large" disabled={check !== 'ok'} onClick={sign}>{t`Read and sign the agreement`}</Button>
    </div>
  );
}

function PledgeForm({ settings }: { settings: LoanSetting[] }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [settingId, setSettingId] = useState(settings[0].id);
  const setting = settings.find((one) => one.id === settingId) ?? settings[0];
  const [collateral, setCollateral] = useState('');
  const [amount, setAmount] = useState('');
  const [days, setDays] = useState(String(setting.minDays));
  const view = useTickers();
  const balances = useUserBalanceQuery();
  const asset = setting.collateralAsset ?? 'BTC';
  const ticker = view.tickers?.find((one) => one.symbol === `${asset}${setting.asset}`);
  const price = ticker?.last;
  const collateralScale = balances.data?.find((balance) => balance.currency === asset)?.scale ?? 8;
  const held = balances.data?.find((balance) => balance.currency === asset)?.available;
  const scale = scaleOf(setting.minAmount);

  const collateralOk = atomicAt(collateral, collateralScale) !== undefined && (atomicAt(collateral, collateralScale) ?? 0n) > 0n;
  const collateralOverBalance = collateralOk && held !== undefined && (atomicAt(collateral, collateralScale) ?? 0n) > (atomicAt(held, collateralScale) ?? 0n);
  const check = checkCredit(amount, days, setting);
  const ltv = collateralOk && check !== 'invalid' && amount && price ? ltvPercent(amount.trim(), collateral.trim(), price) : undefined;
  const overInitial = Boolean(ltv && price && setting.initialLtv && ltvAbove(amount.trim(), collateral.trim(), price, setting.initialLtv));
  const maxLoan = collateralOk && price && setting.initialLtv ? maxLoanText(collateral.trim(), price, setting.initialLtv, scale) : undefined;
  const daysNumber = Number(days);
  const interest = checkDays(days, setting) === 'ok' ? totalInterestText(amount, setting.dailyRate, daysNumber, scale) : undefined;

  const decimalsText = (scale: number) => t`Please enter an amount with at most ${scale} decimals.`;
  const collateralMessage = collateral && !collateralOk ? decimalsText(collateralScale)
    : collateralOverBalance ? t`More than your available ${asset}.` : undefined;
  const amountMessage = overInitial
    ? t`Above the initial loan-to-value of ${setting.initialLtv}%. Borrow less or pledge more.`
    : ({
      empty: undefined, ok: undefined, days_invalid: undefined, over_limit: undefined,
      invalid: t`Please enter an amount with at most ${scale} decimals.`,
      below_minimum: t`The minimum is ${plainAmount(setting.minAmount)} ${setting.asset}.`,
      above_maximum: t`The maximum is ${plainAmount(setting.maxAmount)} ${setting.asset}.`,
    })[check];
  const daysMessage = amount && check === 'days_invalid' ? t`Choose from ${setting.minDays} to ${setting.maxDays} days.` : undefined;
  const ready = check === 'ok' && collateralOk && !collateralOverBalance && Boolean(ltv) && !overInitial;
  const sign = () => {
    const query = new URLSearchParams({
      settingId: setting.id, amount: amount.trim().replace(',', '.'), days: String(daysNumber), collateral: collateral.trim().replace(',', '.'),
    });
    navigate(`/jiedaiHetong?${query.toString()}`);
  };
  const choose = (id: string) => {
    setSettingId(id);
    setCollateral('');
  };
  return (
    <div className="loan-form">
      <section className="loan-card" aria-label={t`Pledge loan`}>
        <div className="loan-assets" role="radiogroup" aria-label={t`Collateral asset`}>
          {settings.map((one) => (
            <button key={one.id} type="button" role="radio" aria-checked={one.id === setting.id}
              className={`loan-asset${one.id === setting.id ? ' on' : ''}`} onClick={() => choose(one.id)}>
              {one.collateralAsset}
            </button>
          ))}
        </div>
        <label className="loan-field">
          <span>{t`Collateral (${asset})`}</span>
          <input inputMode="decimal" autoComplete="off" value={collateral} aria-invalid={collateralMessage ? true : undefined}
            placeholder="0" onChange={(event) => setCollateral(event.target.value)} />
        </label>
        <p className={`loan-help${collateralMessage ? ' error' : ''}`}>
          {collateralMessage ?? (held !== undefined ? <>{t`Available`}: <Amount value={held} asset={asset} withAsset /></> : '')}
        </p>
        <label className="loan-field">
          <span>{t`Loan amount (${setting.asset})`}</span>
          <input inputMode="decimal" autoComplete="off" value={amount} aria-invalid={amountMessage ? true : undefined}
            placeholder={`${plainAmount(setting.minAmount)} – ${plainAmount(setting.maxAmount)}`}
            onChange={(event) => setAmount(event.target.value)} />
        </label>
        <p className={`loan-help${amountMessage ? ' error' : ''}`} role={overInitial ? 'alert' : undefined}>
          {amountMessage ?? (maxLoan ? t`Up to ${plainAmount(maxLoan)} ${setting.asset} at the initial loan-to-value.` : '')}
        </p>
        <label className="loan-field">
          <span>{t`Days`}</span>
          <input inputMode="numeric" autoComplete="off" value={days} aria-invalid={daysMessage ? true : undefined}
            placeholder={`${setting.minDays} – ${setting.maxDays}`} onChange={(event) => setDays(event.target.value)} />
        </label>
        <p className={`loan-help${daysMessage ? ' error' : ''}`}>{daysMessage ?? t`From ${setting.minDays} to ${setting.maxDays} days.`}</p>
      </section>
      <section className="loan-card" aria-label={t`Loan-to-value`}>
        <dl className="loan-figures">
          <div>
            <dt>{t`${asset} price`}</dt>
            <dd data-testid="loan-price">{price ? <Amount value={price} asset={setting.asset} scale={decimalsOf(price)} exact withAsset />
              : view.loading ? t`Loading…` : t`No price at the moment`}</dd>
          </div>
          <div><dt>{t`Loan-to-value`}</dt><dd data-testid="loan-ltv">{ltv ? `${ltv}%` : '—'}</dd></div>
        </dl>
        <LtvMeter ltv={ltv} zone={ltv ? ltvZone(ltv, setting.marginCallLtv, setting.liquidationLtv) : 'safe'}
          initial={setting.initialLtv} marginCall={setting.marginCallLtv} liquidation={setting.liquidationLtv} />
        {ticker?.source && <SimulatedPricesLabel sources={[ticker.source]} />}
        <dl className="loan-figures">
          <div><dt>{t`Daily rate`}</dt><dd><RatePercent rate={setting.dailyRate} /></dd></div>
          <div><dt>{t`Total interest`}</dt><dd>{interest ? <Amount value={interest} asset={setting.asset} scale={scale} exact withAsset /> : '—'}</dd></div>
          <div><dt>{t`Liquidation fee`}</dt><dd>{setting.liquidationFee ? `${setting.liquidationFee}%` : '—'}</dd></div>
        </dl>
        <p className="loan-explain">
          {t`If the loan-to-value reaches the liquidation level, the collateral is sold to the platform at the recorded price, the loan and the fee are repaid from it and the rest comes back to you.`}
        </p>
      </section>
      <Button block color="primary" size="large" disabled={!ready} onClick={sign}>{t`Read and sign the agreement`}</Button>
      {balances.isError && <p className="loan-help error">{failureText(balances.error)}</p>}
    </div>
  );
}
