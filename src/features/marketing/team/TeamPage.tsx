// tuanduiYaoqing: the caller's invitation (code, link, QR code, short link) and team: members on
// each of the three levels below them, how many joined today and how many deposited, the share
// of the fees each level pays that is credited to the caller, what they earned and the daily
// statement. An account made without a code (guest, wallet, provider login) may bind an inviter
// here, once.
import { useState } from 'react';
import { Button, Input, PullToRefresh, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { MyTeam, TeamIncomeDay } from '../../../api/contract/team.ts';
import { failureText } from '../../../api/errorMessages.ts';
import { AddressQr } from '../../../components/AddressQr.tsx';
import { Amount } from '../../../components/Amount.tsx';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { prepareMarketingTexts } from '../marketingTexts.ts';
import {
  inviteLinkOf, shortLinkOf, statementDaysShown, useBindInviterMutation, useMakeShortLinkMutation, useMyTeamQuery, useTeamIncomeQuery,
} from './teamApi.ts';
import './team.css';

export const prepare = prepareMarketingTexts;

function usePullTexts() {
  const { t } = useLingui();
  return { pullingText: t`Pull to refresh`, canReleaseText: t`Release to refresh`, refreshingText: t`Loading...`, completeText: t`Updated` };
}

function Invitation({ team }: { team: MyTeam }) {
  const { t } = useLingui();
  const [makeShortLink, shortLink] = useMakeShortLinkMutation();
  const link = inviteLinkOf(team.inviteCode);
  const shortCode = shortLink.data?.code ?? team.shortLink?.split('/').pop();
  const short = shortCode ? shortLinkOf(shortCode) : undefined;
  return (
    <section className="team-card team-invite" aria-labelledby="team-invite-title">
      <h2 id="team-invite-title" className="team-card-title">{t`Invite friends`}</h2>
      <div className="team-qr"><AddressQr value={link} label={t`QR code of your invitation link`} size={160} /></div>
      <dl className="team-rows">
        <div><dt>{t`Invitation code`}</dt><dd><strong data-testid="team-code">{team.inviteCode}</strong> <CopyButton text={team.inviteCode} label={t`Copy invitation code`} /></dd></div>
        <div><dt>{t`Invitation link`}</dt><dd><span className="team-link" data-testid="team-link">{link}</span> <CopyButton text={link} label={t`Copy invitation link`} /></dd></div>
        <div>
          <dt>{t`Short link`}</dt>
          <dd>
            {short ? (
              <><span className="team-link" data-testid="team-short-link">{short}</span> <CopyButton text={short} label={t`Copy short link`} /></>
            ) : (
              <Button size="mini" color="primary" fill="outline" loading={shortLink.isLoading} onClick={() => void makeShortLink()}>{t`Make a short link`}</Button>
            )}
            {shortLink.isError && <p className="team-error" role="alert">{failureText(shortLink.error)}</p>}
          </dd>
        </div>
      </dl>
      <p className="team-note">{t`Friends who register through your link or with your code join your team.`}</p>
    </section>
  );
}

function Figures({ team }: { team: MyTeam }) {
  const { t } = useLingui();
  const levelCount = team.subordinateLevels;
  const [rate1, rate2, rate3] = [1, 2, 3].map((level) => team.levels.find((row) => row.level === level)?.ratePercent ?? '0');
  return (
    <section className="team-card" aria-labelledby="team-figures-title">
      <h2 id="team-figures-title" className="team-card-title">{t`My team`}</h2>
      <div className="team-figures">
        <div><span>{t`Team size`}</span><strong data-testid="team-size">{team.teamSize}</strong></div>
        <div><span>{t`Newly added today`}</span><strong data-testid="team-new-today">{team.newToday}</strong></div>
        <div><span>{t`Deposited`}</span><strong data-testid="team-deposited">{team.depositedCount}</strong></div>
        <div><span>{t`Team income (USDT)`}</span><strong data-testid="team-income"><Amount value={team.teamIncome} asset="USDT" /></strong></div>
      </div>
      <table className="team-table">
        <caption>{t`Subordinate levels: ${levelCount}`}</caption>
        <thead>
          <tr><th scope="col">{t`Level`}</th><th scope="col">{t`Members`}</th><th scope="col">{t`New today`}</th><th scope="col">{t`Deposited`}</th><th scope="col">{t`Share of fees`}</th></tr>
        </thead>
        <tbody>
          {team.levels.map((level) => {
            const number = level.level;
            return (
              <tr key={number} data-testid={`team-level-${number}`}>
                <th scope="row">{t`Level ${number}`}</th>
                <td>{level.members}</td><td>{level.newToday}</td><td>{level.deposited}</td><td>{level.ratePercent}&nbsp;%</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="team-note" data-testid="team-rates">
        {t`You receive a share of the trading fees your team pays: ${rate1} % of level 1, ${rate2} % of level 2 and ${rate3} % of level 3. It is paid from the platform's fees, credited daily for the previous day (UTC). Simulated trades do not count.`}
      </p>
    </section>
  );
}

function Statement({ day }: { day: TeamIncomeDay }) {
  const { t } = useLingui();
  return (
    <li className="team-statement" data-testid={`statement-${day.day}-${day.asset}`}>
      <div className="team-statement-head"><strong>{day.day}</strong> <Amount value={day.amount} asset={day.asset} withAsset /></div>
      <table className="team-table">
        <thead>
          <tr><th scope="col">{t`Level`}</th><th scope="col">{t`Members`}</th><th scope="col">{t`Fees paid`}</th><th scope="col">{t`Share of fees`}</th><th scope="col">{t`Credited`}</th></tr>
        </thead>
        <tbody>
          {day.levels.map((level) => {
            const number = level.level;
            return (
              <tr key={number}>
                <th scope="row">{t`Level ${number}`}</th><td>{level.members}</td><td><Amount value={level.fees} asset={day.asset} /></td>
                <td>{level.ratePercent}&nbsp;%</td><td><Amount value={level.amount} asset={day.asset} /></td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </li>
  );
}

function Statements() {
  const { t } = useLingui();
  const query = useTeamIncomeQuery();
  let body;
  if (query.isLoading) body = <Skeleton.Paragraph lineCount={3} animated />;
  else if (!query.data) {
    body = (
      <div role="alert"><p>{t`The statements could not be loaded.`} {failureText(query.error)}</p>
        <Button color="primary" fill="outline" onClick={() => void query.refetch()}>{t`Retry`}</Button></div>
    );
  } else if (query.data.records.length === 0) body = <p className="team-empty">{t`No team income yet. It is credited the day after your team trades.`}</p>;
  else body = <ul className="team-statements">{query.data.records.map((day) => <Statement key={`${day.day}-${day.asset}`} day={day} />)}</ul>;
  return (
    <section className="team-card" aria-labelledby="team-statements-title">
      <h2 id="team-statements-title" className="team-card-title">{t`Daily team income`}</h2>
      <p className="team-note">{t`The last ${statementDaysShown} days with income.`}</p>
      {body}
    </section>
  );
}

function BindInviter() {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const [bind, state] = useBindInviterMutation();
  return (
    <section className="team-card" aria-labelledby="team-bind-title">
      <h2 id="team-bind-title" className="team-card-title">{t`Were you invited?`}</h2>
      <p className="team-note">{t`Enter your inviter's code. It can be set once and not changed later.`}</p>
      <form className="team-bind" onSubmit={(event) => { event.preventDefault(); if (code.trim()) void bind({ inviteCode: code.trim() }); }}>
        <Input aria-label={t`Inviter's invitation code`} value={code} onChange={setCode} maxLength={12} placeholder={t`Invitation code`} />
        <Button type="submit" color="primary" size="small" loading={state.isLoading} disabled={!code.trim()}>{t`Bind inviter`}</Button>
      </form>
      {state.isError && <p className="team-error" role="alert">{failureText(state.error)}</p>}
    </section>
  );
}

export default function TeamPage() {
  const { t } = useLingui();
  const query = useMyTeamQuery();
  const income = useTeamIncomeQuery();
  const pull = usePullTexts();
  const header = <PageHeader title={t`Team invitation`} fallback="/my" />;
  if (query.isLoading) {
    return <div className="team-page">{header}<div className="team-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Paragraph lineCount={8} animated /></div></div>;
  }
  if (!query.data) {
    return (
      <div className="team-page">{header}
        <div className="team-card" role="alert">
          <p><strong>{t`Your team could not be loaded.`}</strong> {failureText(query.error)}</p>
          <Button color="primary" fill="outline" onClick={() => void query.refetch()}>{t`Retry`}</Button>
        </div>
      </div>
    );
  }
  const team = query.data;
  return (
    <div className="team-page">
      {header}
      <PullToRefresh onRefresh={async () => { await Promise.all([query.refetch(), income.refetch()]); }} {...pull}>
        <Invitation team={team} />
        <Figures team={team} />
        <Statements />
        {!team.hasInviter && <BindInviter />}
      </PullToRefresh>
    </div>
  );
}
