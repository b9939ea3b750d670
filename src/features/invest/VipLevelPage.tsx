// vipLevel: the caller's VIP level, their total assets in USDT when last checked, the progress to
// the next level, and the table of levels: the assets each needs and what it unlocks (the credit
// limit it adds, the products it opens). The level follows total assets, up and down, checked
// daily and after large movements. Issue 23: each level's one-time bonus and weekly red envelope,
// and which bonuses the caller received. Issue 38: a bonus is paid to a verified account once its
// level has been held for the holding period: the table says when each waiting one will be paid,
// and an unverified caller is told so, with the way to the verification page.
import { Link } from 'react-router-dom';
import { PullToRefresh, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { Levels } from '../../api/contract/levels.ts';
import { Amount } from '../../components/Amount.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatEpochMs } from '../../lib/time.ts';
import { formatAssetAmount } from '../../lib/assetPrecision.ts';
import { intlOf } from '../../lib/locales.ts';
import { useVipLevelsQuery } from './investApi.ts';
import { useVipRewardsQuery } from '../../entities/rewards/rewardsApi.ts';
import { atomicOf } from '../../entities/invest/investMath.ts';
import { LoadFailure, usePullTexts } from '../../entities/invest/parts.tsx';
import { prepareInvestTexts } from '../../entities/invest/investTexts.ts';
import '../../entities/invest/invest.css';

export const prepare = prepareInvestTexts;

const usdtScale = 6;

/** Progress from the current level's threshold to the next one's, in whole percent (exact). */
export function levelProgress(levels: Levels): number {
  const my = levels.my;
  if (!my) return 0;
  const sorted = [...levels.levels].sort((a, b) => a.level - b.level);
  const current = sorted.find((row) => row.level === my.level);
  const next = sorted.find((row) => row.level > my.level);
  if (!current || !next) return 100;
  const from = atomicOf(current.minAssets, usdtScale);
  const to = atomicOf(next.minAssets, usdtScale);
  const have = atomicOf(my.assets, usdtScale);
  if (to <= from) return 100;
  const percent = ((have - from) * 100n) / (to - from);
  return Number(percent < 0n ? 0n : percent > 100n ? 100n : percent);
}

/** Each level's one-time bonus and weekly red envelope, marking the bonuses the caller received. */
function VipRewardsTable() {
  const { t } = useLingui();
  const query = useVipRewardsQuery();
  const data = query.data;
  if (query.isLoading) return <section className="invest-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Paragraph lineCount={4} animated /></section>;
  if (!data) return <LoadFailure title={t`The VIP rewards could not be loaded.`} error={query.error} onRetry={() => void query.refetch()} />;
  const granted = new Map(data.granted.map((grant) => [grant.level, grant]));
  const waiting = new Map((data.waiting ?? []).map((entry) => [entry.level, entry]));
  const verified = data.verified !== false;
  const holdingDays = data.holdingDays ?? 7;
  const stateOf = (level: number) => {
    if (granted.has(level)) return t`Received`;
    const entry = waiting.get(level);
    if (!entry) return '—';
    if (!verified) return t`After verification`;
    const date = formatEpochMs(entry.payableAt, 'date');
    return t`Paid from ${date}`;
  };
  return (
    <section className="invest-card" aria-labelledby="vip-rewards-title">
      <h2 id="vip-rewards-title" className="invest-card-title">{t`VIP rewards`}</h2>
      <table className="vip-table" data-testid="vip-rewards">
        <thead>
          <tr><th scope="col">{t`Level`}</th><th scope="col">{t`One-time bonus`}</th><th scope="col">{t`Weekly red envelope`}</th><th scope="col">{t`Bonus received`}</th></tr>
        </thead>
        <tbody>
          {data.levels.map((row) => (
            <tr key={row.level} className={row.level === data.level ? 'mine' : undefined}>
              <th scope="row">{row.name}</th>
              <td><Amount value={row.bonus} asset={row.asset} /></td>
              <td><Amount value={row.weeklyEnvelope} asset={row.asset} /></td>
              <td data-testid={`vip-bonus-state-${row.level}`}>{stateOf(row.level)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="buy-note">{t`The bonus of a level is paid once per person, when you have held the level for ${holdingDays} days without a break. Red envelopes arrive every Monday and can be opened for seven days in the welfare centre.`}</p>
      {!verified && (
        <p className="buy-note" role="note" data-testid="vip-verification-needed">
          {t`VIP bonuses and red envelopes are paid to verified accounts only.`} <Link to="/shenfenRenzheng">{t`Verify my identity`}</Link>
        </p>
      )}
    </section>
  );
}

export default function VipLevelPage() {
  const { t, i18n } = useLingui();
  const query = useVipLevelsQuery();
  const rewards = useVipRewardsQuery();
  const pull = usePullTexts();
  const data = query.data;
  const header = <PageHeader title={t`VIP level`} fallback="/my" />;
  if (query.isLoading) return <div className="invest-page">{header}<div className="invest-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Paragraph lineCount={8} animated /></div></div>;
  if (!data) return <div className="invest-page">{header}<LoadFailure title={t`The levels could not be loaded.`} error={query.error} onRetry={() => void query.refetch()} /></div>;
  const my = data.my;
  const levels = [...data.levels].sort((a, b) => a.level - b.level);
  const current = levels.find((row) => row.level === my?.level);
  const next = levels.find((row) => my !== undefined && row.level > my.level);
  const progress = levelProgress(data);
  const level = my?.level ?? 0;
  const levelName = current?.name ?? t`VIP ${level}`;
  const checked = my ? formatEpochMs(my.checkedAt) : '';
  const nextName = next?.name ?? '';
  const toNextText = formatAssetAmount(my?.toNext ?? '0', 'USDT', intlOf(i18n.locale));
  return (
    <div className="invest-page">
      {header}
      <PullToRefresh onRefresh={async () => { await Promise.all([query.refetch(), rewards.refetch()]); }} {...pull}>
        {my && (
          <section className="vip-current" aria-labelledby="vip-now">
            <h2 id="vip-now" data-testid="vip-level">{levelName}</h2>
            <p>{t`Total assets`}: <Amount value={my.assets} asset="USDT" withAsset /></p>
            {next && my.toNext ? (
              <>
                <div className="vip-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress} aria-label={t`Progress to ${nextName}`}>
                  <span style={{ width: `${progress}%` }} />
                </div>
                <p>{t`${nextName} needs ${toNextText} USDT more in total assets.`}</p>
              </>
            ) : <p>{t`You are at the highest level.`}</p>}
            <p className="vip-checked">{t`Checked ${checked}`}</p>
          </section>
        )}
        <section className="invest-card" aria-labelledby="vip-table-title">
          <h2 id="vip-table-title" className="invest-card-title">{t`Levels and what they unlock`}</h2>
          <table className="vip-table">
            <thead>
              <tr><th scope="col">{t`Level`}</th><th scope="col">{t`Total assets from (USDT)`}</th><th scope="col">{t`Credit limit added (USDT)`}</th><th scope="col">{t`Products unlocked`}</th></tr>
            </thead>
            <tbody>
              {levels.map((row) => (
                <tr key={row.level} className={row.level === my?.level ? 'mine' : undefined} aria-current={row.level === my?.level ? 'true' : undefined}>
                  <th scope="row">{row.name}</th>
                  <td><Amount value={row.minAssets} asset="USDT" decimals={0} /></td>
                  <td><Amount value={row.creditLimit} asset="USDT" decimals={0} /></td>
                  <td>{row.productsUnlocked}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="buy-note">{t`Your level follows your total assets in USDT: it rises and falls automatically, checked daily and after large movements.`}</p>
        </section>
        <VipRewardsTable />
      </PullToRefresh>
    </div>
  );
}
