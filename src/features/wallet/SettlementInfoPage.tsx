// jiesuanInfo, settlement info (spec §2): where withdrawals go — the user's bank cards and chain
// addresses, added and edited in a sheet — and the withdrawal password, set with a code or
// changed with the old one. `?add=bank|chain` opens the sheet to add one, `?panel=password` the
// password's (the withdrawal page links here with them); closing a sheet drops its parameter.
import { useSearchParams } from 'react-router-dom';
import { Button, ErrorBlock, Popup, PullToRefresh, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { Destination } from '../../api/contract/withdrawals.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { showToast } from '../../components/feedback.tsx';
import { useGetMyUserInfoQuery } from '../../entities/session/authApi.ts';
import { DestinationForm, DestinationIcon, DestinationLabel, type DestinationType } from './DestinationForm.tsx';
import { WithdrawPasswordForm } from './WithdrawPasswordForm.tsx';
import { useCurrencyListQuery, useDestinationsQuery } from '../../entities/wallet/walletApi.ts';
import { prepareWalletTexts } from './walletTexts.ts';
import { prepareAccountTexts } from '../../lib/catalogs.ts';
import './settlement.css';

// The second factor's field (entities/session/SecondFactorFields.tsx) brings its texts in the account catalog.
export const prepare = async () => { await Promise.all([prepareWalletTexts(), prepareAccountTexts()]); };

type Sheet = { kind: 'add'; type: DestinationType; currency?: string } | { kind: 'edit'; destination: Destination } | { kind: 'password' };

/** The sheet the address asks for, if any. */
export function sheetOf(params: URLSearchParams, destinations: Destination[] | undefined): Sheet | undefined {
  const add = params.get('add');
  if (add === 'bank' || add === 'chain') return { kind: 'add', type: add, currency: params.get('currency') ?? undefined };
  const edit = params.get('edit');
  const destination = edit ? destinations?.find((item) => item.id === edit) : undefined;
  if (destination) return { kind: 'edit', destination };
  if (params.get('panel') === 'password') return { kind: 'password' };
  return undefined;
}

export default function SettlementInfoPage() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const destinations = useDestinationsQuery();
  const currencies = useCurrencyListQuery();
  const user = useGetMyUserInfoQuery();
  const sheet = sheetOf(params, destinations.data);
  const open = (changes: Record<string, string>) => setParams(changes, { replace: true });
  const close = () => {
    const next = new URLSearchParams(params);
    for (const key of ['add', 'edit', 'panel', 'currency']) next.delete(key);
    setParams(next, { replace: true });
  };
  // The form's own tabs switch between a card and an address: the title names neither.
  const sheetTitle = !sheet ? '' : sheet.kind === 'add' ? t`Add a payout account`
    : sheet.kind === 'edit' ? t`Edit payout account`
      : user.data?.hasWithdrawPassword ? t`Change withdrawal password` : t`Set withdrawal password`;

  return (
    <div className="settlement-page">
      <PageHeader title={t`Settlement info`} fallback="/zichanCenter" />
      <PullToRefresh onRefresh={async () => { await Promise.all([destinations.refetch(), user.refetch()]); }}
        pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`} refreshingText={t`Loading...`} completeText={t`Updated`}>
        <section className="settlement-section" aria-labelledby="payout-accounts">
          <div className="settlement-section-head">
            <h2 id="payout-accounts">{t`Payout accounts`}</h2>
          </div>
          <p className="settlement-note">{t`Withdrawals are paid only to the accounts you bind here.`}</p>
          {destinations.isLoading && <Skeleton.Paragraph lineCount={4} animated aria-label={t`Loading...`} />}
          {destinations.isError && !destinations.data && (
            <ErrorBlock status="disconnected" title={t`Could not load your accounts`} description={t`Check your connection and try again.`}>
              <Button color="primary" onClick={() => void destinations.refetch()}>{t`Retry`}</Button>
            </ErrorBlock>
          )}
          {destinations.data && destinations.data.length === 0 && (
            <p className="empty-note">{t`No payout account yet. Add a wallet address or a bank card to withdraw.`}</p>
          )}
          {destinations.data && destinations.data.length > 0 && (
            <ul className="destination-list" aria-label={t`Payout accounts`}>
              {destinations.data.map((destination) => {
                const name = destination.type === 'bank' ? destination.bankName ?? '' : `${destination.currency} ${destination.network}`;
                return (
                  <li key={destination.id} className="destination-card">
                    <DestinationIcon type={destination.type} />
                    <DestinationLabel destination={destination} full />
                    <Button size="small" fill="none" color="primary" onClick={() => open({ edit: destination.id })} aria-label={t`Edit ${name}`}>
                      {t`Edit`}
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
          <div className="settlement-actions">
            <Button color="primary" fill="outline" onClick={() => open({ add: 'chain' })}>{t`Add a wallet address`}</Button>
            <Button color="primary" fill="outline" onClick={() => open({ add: 'bank' })}>{t`Add a bank card`}</Button>
          </div>
        </section>

        <section className="settlement-section" aria-labelledby="withdraw-password">
          <div className="settlement-section-head">
            <h2 id="withdraw-password">{t`Withdrawal password`}</h2>
            {user.data && (
              <span className={`password-state ${user.data.hasWithdrawPassword ? 'set' : 'unset'}`}>
                {user.data.hasWithdrawPassword ? t`Set` : t`Not set`}
              </span>
            )}
          </div>
          <p className="settlement-note">{t`Asked for every withdrawal. Keep it apart from your login password.`}</p>
          {user.isLoading && <Skeleton.Paragraph lineCount={1} animated />}
          {user.data && (
            <div className="settlement-actions">
              <Button color="primary" fill={user.data.hasWithdrawPassword ? 'outline' : 'solid'} onClick={() => open({ panel: 'password' })}>
                {user.data.hasWithdrawPassword ? t`Change withdrawal password` : t`Set withdrawal password`}
              </Button>
            </div>
          )}
        </section>
      </PullToRefresh>

      <Popup visible={sheet !== undefined && (sheet.kind !== 'password' || user.data !== undefined)} onMaskClick={close} onClose={close}
        position="bottom" destroyOnClose bodyClassName="settlement-sheet">
        <div className="sheet-head">
          <h2 className="popup-title">{sheetTitle}</h2>
          <button type="button" className="sheet-close" aria-label={t`Close`} onClick={close}>×</button>
        </div>
        <div className="sheet-body">
          {sheet && sheet.kind !== 'password' && (
            currencies.data ? (
              <DestinationForm key={sheet.kind === 'edit' ? sheet.destination.id : sheet.type} currencies={currencies.data}
                initial={sheet.kind === 'edit' ? sheet.destination : undefined}
                initialType={sheet.kind === 'add' ? sheet.type : undefined}
                initialCurrency={sheet.kind === 'add' ? sheet.currency : undefined}
                onDone={() => {
                  void showToast(t`Saved`);
                  close();
                }} />
            ) : <Skeleton.Paragraph lineCount={5} animated />
          )}
          {sheet?.kind === 'password' && user.data && (
            <WithdrawPasswordForm user={user.data} onDone={(action) => {
              void showToast(action === 'set' ? t`Withdrawal password set` : t`Withdrawal password changed`);
              close();
            }} />
          )}
        </div>
      </Popup>
    </div>
  );
}
