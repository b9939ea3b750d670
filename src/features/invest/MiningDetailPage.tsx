// kuangchiDetail (`?id=`): one mining machine: its specification (manufacturer, hashrate, power,
// size, weight, temperature, humidity, network), the output formula with the reward figure in
// force, its date and source, and renting machines for the term (minerBuy) with a confirmation
// sheet that makes one clientOrderId (a retry cannot rent twice).
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Popup, Skeleton, Stepper } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { Product } from '../../api/contract/products.ts';
import type { ApiError } from '../../api/baseQuery.ts';
import { failureText } from '../../api/errorMessages.ts';
import { formatAmount } from '../../api/contract/amounts.ts';
import { Amount } from '../../components/Amount.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatCalendarDate } from '../../lib/time.ts';
import { useUserBalanceQuery } from '../../entities/wallet/walletApi.ts';
import { useMinerBuyMutation, useProductQuery } from './investApi.ts';
import { atomicOf, machinesCost, newClientOrderId, scaleOf } from '../../entities/invest/investMath.ts';
import { refusalLink } from './BuyForm.tsx';
import { CoverageFacts, TermsFacts } from './ProductFacts.tsx';
import { Figure, LoadFailure } from '../../entities/invest/parts.tsx';
import { prepareInvestTexts } from '../../entities/invest/investTexts.ts';
import '../../entities/invest/invest.css';

export const prepare = prepareInvestTexts;

/** Machines one order may rent (MinerBuyBody). */
export const quantityMax = 1000;

export default function MiningDetailPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const valid = /^[0-9]{1,19}$/.test(id);
  const query = useProductQuery(id, { skip: !valid });
  const product = query.data;
  const header = <PageHeader title={product?.name ?? t`Mining machine`} fallback="/kuangchi" />;
  if (!valid || (query.error as { error?: string } | undefined)?.error === 'product_not_found') {
    return <div className="invest-page">{header}<p className="invest-empty">{t`This product was not found.`}</p></div>;
  }
  if (query.isLoading) return <div className="invest-page">{header}<div className="invest-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Paragraph lineCount={8} animated /></div></div>;
  if (!product) return <div className="invest-page">{header}<LoadFailure title={t`The machine could not be loaded.`} error={query.error} onRetry={() => void query.refetch()} /></div>;
  return (
    <div className="invest-page">
      {header}
      <MachineSpecs product={product} />
      <OutputFormula product={product} />
      <TermsFacts product={product} />
      <CoverageFacts product={product} />
      <RentForm product={product} />
    </div>
  );
}

function MachineSpecs({ product }: { product: Product }) {
  const { t } = useLingui();
  const machine = product.machine;
  if (!machine) return null;
  const hashrate = machine.hashrateThs;
  const power = machine.powerW;
  const weight = machine.weightKg;
  const specs: Array<[string, string]> = [
    [t`Manufacturer`, machine.manufacturer], [t`Hashrate`, t`${hashrate} TH/s`], [t`Power`, t`${power} W`],
    [t`Size`, machine.size], [t`Weight`, t`${weight} kg`], [t`Temperature`, machine.temperature],
    [t`Humidity`, machine.humidity], [t`Network`, machine.network],
  ];
  return (
    <section className="invest-card" aria-labelledby="machine-title">
      <h2 id="machine-title" className="invest-card-title">{t`Machine`}</h2>
      <dl className="machine-specs">{specs.map(([label, value]) => <div key={label}><dt>{label}</dt><dd>{value}</dd></div>)}</dl>
    </section>
  );
}

function OutputFormula({ product }: { product: Product }) {
  const { t } = useLingui();
  const reward = product.miningReward;
  const mined = product.payoutAsset;
  return (
    <section className="invest-card" aria-labelledby="formula-title">
      <h2 id="formula-title" className="invest-card-title">{t`How output is computed`}</h2>
      <p className="formula">{t`Daily output = hashrate × the network's reward per TH/s per day − power × 24 h × the electricity price (converted to ${mined} at the last recorded price).`}</p>
      {reward ? (
        <dl className="invest-figures">
          <Figure label={t`Reward per TH/s per day`}><Amount value={reward.rewardPerThsDay} asset={mined} exact withAsset /></Figure>
          <Figure label={t`Electricity price per kWh`}><Amount value={reward.electricityPerKwh} asset="USDT" exact withAsset /></Figure>
          <Figure label={t`Figure of`}>{formatCalendarDate(reward.day)}</Figure>
          <Figure label={t`Source`}>{reward.source}</Figure>
          <Figure label={t`Estimated output per machine per day`} strong testId="mining-estimate">
            <Amount value={reward.estimatedDailyOutput} asset={mined} exact withAsset />
          </Figure>
        </dl>
      ) : <p className="buy-note">{t`No reward figure is published yet: nothing is paid until one is.`}</p>}
      <p className="buy-note">{t`The estimate moves with the network's reward and the price. A day whose output does not cover the electricity pays nothing, and its receipt says so.`}</p>
    </section>
  );
}

function RentForm({ product }: { product: Product }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const balances = useUserBalanceQuery();
  const [rent, renting] = useMinerBuyMutation();
  const [quantity, setQuantity] = useState(1);
  const [confirming, setConfirming] = useState<{ quantity: number; clientOrderId: string }>();
  const [failure, setFailure] = useState<{ message: string; link?: 'vip' | 'kyc' }>();
  const asset = product.asset;
  const scale = scaleOf(product.unitPrice);
  const cost = machinesCost(atomicOf(product.unitPrice, scale), quantity);
  const balance = balances.data?.find((row) => row.currency === product.asset);
  const short = balance !== undefined && atomicOf(balance.available, scale) < cost;
  const costText = formatAmount(cost, scale);
  const send = async () => {
    if (!confirming) return;
    setFailure(undefined);
    const result = await rent({ productId: product.id, quantity: confirming.quantity, clientOrderId: confirming.clientOrderId });
    if (result.data) {
      setConfirming(undefined);
      navigate(`/taoliOk?id=${encodeURIComponent(result.data.id)}`);
      return;
    }
    const code = (result.error as Partial<ApiError>).kind === 'api' ? (result.error as { error?: string }).error : undefined;
    setFailure({ message: code === 'balance_insufficient' ? t`Your available ${asset} does not cover this amount.` : failureText(result.error), link: refusalLink(result.error) });
  };
  return (
    <section className="invest-card" aria-labelledby="rent-title">
      <h2 id="rent-title" className="invest-card-title">{t`Rent machines`}</h2>
      <div className="quantity-row">
        <span id="rent-quantity">{t`Machines`}</span>
        <Stepper min={1} max={quantityMax} digits={0} value={quantity} onChange={(value) => setQuantity(Math.max(1, Math.min(quantityMax, Math.trunc(value || 1))))}
          inputReadOnly={false} aria-labelledby="rent-quantity" />
      </div>
      <dl className="invest-figures" aria-live="polite">
        <Figure label={t`Total price`} strong testId="rent-cost"><Amount value={costText} asset={asset} exact withAsset /></Figure>
        <Figure label={t`Available`}>{balance ? <Amount value={balance.available} asset={asset} withAsset /> : '—'}</Figure>
      </dl>
      {short && <p className="buy-refusal" role="alert">{t`Your available ${asset} does not cover this amount.`}</p>}
      <p className="buy-note">{t`The price pays for the machines over the term; it does not come back at the end. Output is paid daily in the mined asset.`}</p>
      <Button block color="primary" size="large" disabled={product.status !== 'open' || short}
        onClick={() => { setFailure(undefined); setConfirming({ quantity, clientOrderId: newClientOrderId() }); }}>{t`Rent`}</Button>
      <Popup visible={confirming !== undefined} onMaskClick={() => setConfirming(undefined)} onClose={() => setConfirming(undefined)}
        position="bottom" bodyClassName="invest-sheet" destroyOnClose>
        {confirming && (
          <div role="dialog" aria-labelledby="rent-confirm" className="invest-confirm">
            <div className="sheet-head">
              <h2 id="rent-confirm" className="popup-title">{t`Confirm rental`}</h2>
              <button type="button" className="sheet-close" aria-label={t`Close`} onClick={() => setConfirming(undefined)}>×</button>
            </div>
            <dl className="invest-figures">
              <Figure label={t`Product`}>{product.name}</Figure>
              <Figure label={t`Machines`}>{confirming.quantity}</Figure>
              <Figure label={t`Total price`} strong><Amount value={formatAmount(machinesCost(atomicOf(product.unitPrice, scale), confirming.quantity), scale)} asset={asset} exact withAsset /></Figure>
            </dl>
            {failure && (
              <div className="buy-refusal" role="alert">
                <p>{failure.message}</p>
                {failure.link === 'vip' && <Link to="/vipLevel">{t`See VIP levels`}</Link>}
                {failure.link === 'kyc' && <Link to="/shenfenRenzheng">{t`Verify your identity`}</Link>}
              </div>
            )}
            <Button block color="primary" size="large" loading={renting.isLoading} onClick={() => void send()}>{t`Confirm rental`}</Button>
          </div>
        )}
      </Popup>
    </section>
  );
}
