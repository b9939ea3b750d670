// /heyue, the "contract" tab (spec §2): a segmented control between contracts (ContractTrading)
// and options (second contracts, OptionsTrading, loaded only when chosen). `?mode=options`
// selects options; `?symbol=` and `?side=long|short` preselect the contract form (the chart's
// "Buy long" and "Sell short" buttons open it so).
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import ContractTrading from './contract/ContractTrading.tsx';
import { prepareTradeTexts } from '../../entities/trade/tradeTexts.ts';
import { useUserEvents } from './useUserEvents.ts';
import './trade.css';

export const prepare = prepareTradeTexts;

const OptionsTrading = lazy(() => import('./options/OptionsTrading.tsx'));

export type TradeMode = 'contracts' | 'options';
export const modeOf = (value: string | null): TradeMode => (value === 'options' ? 'options' : 'contracts');

export default function ContractPage({ demo = false }: { demo?: boolean }) {
  // Settlements that happen by themselves (a take-profit, an expiry) show without a refresh.
  useUserEvents();
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const mode = modeOf(params.get('mode'));
  const choose = (next: TradeMode) => {
    const changed = new URLSearchParams(params);
    if (next === 'options') changed.set('mode', 'options');
    else changed.delete('mode');
    setParams(changed, { replace: true });
  };
  return (
    <div className="trade-page">
      <header className="trade-header">
        <h1 className="visually-hidden">{mode === 'options' ? t`Options` : t`Contracts`}</h1>
        <div className="trade-modes" role="tablist" aria-label={t`Trading`}>
          <button type="button" role="tab" id="trade-tab-contracts" aria-selected={mode === 'contracts'} aria-controls="trade-panel"
            className={`trade-mode${mode === 'contracts' ? ' active' : ''}`} onClick={() => choose('contracts')}>{t`Contracts`}</button>
          <button type="button" role="tab" id="trade-tab-options" aria-selected={mode === 'options'} aria-controls="trade-panel"
            className={`trade-mode${mode === 'options' ? ' active' : ''}`} onClick={() => choose('options')}>{t`Options`}</button>
        </div>
      </header>
      <div id="trade-panel" role="tabpanel" aria-labelledby={mode === 'options' ? 'trade-tab-options' : 'trade-tab-contracts'}>
        {mode === 'options' ? (
          <Suspense fallback={<div aria-busy="true" aria-label={t`Loading...`}><Skeleton.Paragraph lineCount={8} animated /></div>}>
            <OptionsTrading demo={demo} />
          </Suspense>
        ) : <ContractTrading demo={demo} />}
      </div>
    </div>
  );
}
