// Linked logins in the security centre (issue 11): the wallets (Sign-In with Ethereum) and OpenID
// Connect identities that log in to this account, when each was linked and last used; link a
// wallet (the browser's) or a configured provider, unlink one after a confirmation. The server
// keeps the last way into an account that has no password login (last_login_method). Linking needs
// a fresh proof when the server asks for one (FreshProof.tsx): a wallet signs first and its signed
// message is sent again with the proof; a provider link starts again with it.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, List } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { failureText, translateError } from '../../api/errorMessages.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { confirmDialog, showToast } from '../../components/feedback.tsx';
import { formatEpochMs } from '../../lib/time.ts';
import {
  useLinkedLoginsQuery, useOidcProvidersQuery, useOidcStartMutation, useSiweLinkMutation, useSiweNonceMutation, useUnlinkLoginMutation,
} from '../../entities/session/externalLoginApi.ts';
import { injectedWallet, signServerMessage } from '../../entities/session/walletSignIn.ts';
import { FreshProofForm, useFreshProof } from './FreshProof.tsx';
import './linkedLoginTexts.ts';
import './linkedLogins.css';

const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

export function LinkedLoginsSection() {
  const { t } = useLingui();
  const linked = useLinkedLoginsQuery();
  const providers = useOidcProvidersQuery();
  const [getNonce] = useSiweNonceMutation();
  const [linkWallet] = useSiweLinkMutation();
  const [startFlow] = useOidcStartMutation();
  const [unlink] = useUnlinkLoginMutation();
  const [wallet] = useState(injectedWallet);
  const [busy, setBusy] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [searchParams, setSearchParams] = useSearchParams();
  const freshProof = useFreshProof();

  // Back from a provider: say how the link went, once.
  useEffect(() => {
    const error = searchParams.get('oidcError');
    if (searchParams.get('oidcLinked')) void showToast(t`The login is linked to your account.`);
    else if (error) setFailure(translateError(error) ?? t`The link with the provider did not succeed. Please try again.`);
    if (error || searchParams.get('oidcLinked')) setSearchParams({}, { replace: true });
  }, [searchParams, setSearchParams, t]);

  const when = (ms: number | null) => (ms === null ? t`never` : formatEpochMs(ms));

  const addWallet = async () => {
    if (!wallet) return;
    setFailure(undefined);
    setBusy('wallet');
    try {
      const signature = await signServerMessage(wallet, (chainId) => getNonce({ chainId }));
      if (signature.outcome === 'nonceRefused') return setFailure(failureText(signature.error));
      if (signature.outcome === 'rejected') return setFailure(t`The wallet did not sign. Nothing was linked.`);
      if (signature.outcome === 'failed') return setFailure(t`The wallet could not sign the message.`);
      const body = signature.body;
      // The signed message stays valid for a few minutes: sent again with the proof when one is asked for.
      const error = await freshProof.run(async (proof) => {
        const answer = await linkWallet({ ...body, ...proof });
        if (answer.error) return answer.error;
        void showToast(t`Wallet ${shortAddress(answer.data.address)} linked.`);
        return undefined;
      });
      if (error) setFailure(failureText(error));
    } finally {
      setBusy(undefined);
    }
  };

  const addProvider = async (provider: string) => {
    setFailure(undefined);
    setBusy(provider);
    const error = await freshProof.run(async (proof) => {
      const answer = await startFlow({ provider, link: true, returnTo: '/anquanZhongxin', ...proof });
      if (answer.error) return answer.error;
      // The answer set this browser's binding cookie, which the provider's redirect back brings to the callback.
      window.location.assign(answer.data.authorizationUrl);
      return undefined;
    });
    setBusy(undefined);
    if (error) setFailure(failureText(error));
  };

  const remove = async (what: { wallet: string } | { identityId: string }, name: string) => {
    setFailure(undefined);
    const confirmed = await confirmDialog({
      title: t`Unlink ${name}?`,
      content: t`You will no longer be able to log in with it.`,
      confirmText: t`Unlink`, cancelText: t`Cancel`,
    });
    if (!confirmed) return;
    const answer = await unlink(what);
    if (answer.error) return setFailure(failureText(answer.error));
    void showToast(t`${name} unlinked.`);
  };

  const data = linked.data;
  const linkedProviders = new Set(data?.identities.map((identity) => identity.provider));
  const linkable = (providers.data ?? []).filter((provider) => !linkedProviders.has(provider.id));

  return (
    <section className="linked-logins" aria-busy={linked.isLoading}>
      <h2 className="linked-logins-title">{t`Wallets and linked logins`}</h2>
      {linked.error ? <FormError message={failureText(linked.error)} /> : null}
      {data && data.wallets.length + data.identities.length === 0
        ? <p className="linked-logins-hint">{t`No wallet or other login is linked to this account.`}</p> : null}
      {data && data.wallets.length + data.identities.length > 0 ? (
        <List>
          {data.wallets.map((item) => (
            <List.Item key={item.address} data-testid="linked-wallet"
              description={t`Linked ${when(item.createdAt)} · last used ${when(item.lastUsedAt)}`}
              extra={<Button size="mini" fill="none" color="danger"
                onClick={() => void remove({ wallet: item.address }, shortAddress(item.address))}>{t`Unlink`}</Button>}>
              {t`Wallet ${shortAddress(item.address)}`}
            </List.Item>
          ))}
          {data.identities.map((item) => (
            <List.Item key={item.id} data-testid="linked-identity"
              description={t`Linked ${when(item.createdAt)} · last used ${when(item.lastUsedAt)}`}
              extra={<Button size="mini" fill="none" color="danger"
                onClick={() => void remove({ identityId: item.id }, item.providerName)}>{t`Unlink`}</Button>}>
              {item.email ? `${item.providerName} · ${item.email}` : item.providerName}
            </List.Item>
          ))}
        </List>
      ) : null}
      {data && !data.hasPasswordLogin
        ? <p className="linked-logins-hint">{t`This account has no password login: keep at least one wallet or linked login.`}</p> : null}
      <div className="linked-logins-actions">
        {wallet ? (
          <Button size="small" loading={busy === 'wallet'} disabled={busy !== undefined} onClick={() => void addWallet()}
            data-testid="link-wallet">{t`Link a wallet`}</Button>
        ) : null}
        {linkable.map((provider) => (
          <Button key={provider.id} size="small" loading={busy === provider.id} disabled={busy !== undefined}
            onClick={() => void addProvider(provider.id)} data-testid={`link-oidc-${provider.id}`}>
            {t`Link ${provider.name}`}
          </Button>
        ))}
      </div>
      {freshProof.asked ? (
        <FreshProofForm kind={freshProof.asked.kind} action={freshProof.asked.action} onDone={freshProof.close} onCancel={freshProof.close} />
      ) : null}
      <FormError message={failure} />
    </section>
  );
}
