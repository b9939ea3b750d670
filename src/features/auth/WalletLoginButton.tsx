// "Log in with a wallet" under the login form (issue 11): Sign-In with Ethereum through the
// browser's wallet (EIP-1193). The wallet signs a message the server checks (domain, single-use
// nonce, signature); the first login of a wallet creates its account. Hidden without a wallet.
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { failureText } from '../../api/errorMessages.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { useSiweLoginMutation, useSiweNonceMutation } from '../../entities/session/externalLoginApi.ts';
import { loginTicketOf, useAskSecondStep } from './secondStep.ts';
import { useCompleteLogin } from './useCompleteLogin.ts';
import { injectedWallet, signServerMessage } from '../../entities/session/walletSignIn.ts';
import './externalLoginTexts.ts';

export function WalletLoginButton() {
  const { t } = useLingui();
  const [wallet] = useState(injectedWallet);
  const [getNonce] = useSiweNonceMutation();
  const [login] = useSiweLoginMutation();
  const completeLogin = useCompleteLogin();
  const askSecondStep = useAskSecondStep();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  if (!wallet) return null;

  const start = async () => {
    setFailure(undefined);
    setBusy(true);
    try {
      const signature = await signServerMessage(wallet, (chainId) => getNonce({ chainId }));
      if (signature.outcome === 'nonceRefused') return setFailure(failureText(signature.error));
      if (signature.outcome === 'rejected') return setFailure(t`The wallet did not sign. Try again, or log in another way.`);
      if (signature.outcome === 'failed') return setFailure(t`The wallet could not sign the message.`);
      const answer = await login(signature.body);
      const loginTicket = loginTicketOf(answer.error);
      if (loginTicket) return askSecondStep(loginTicket);
      if (answer.error) return setFailure(failureText(answer.error));
      await completeLogin(answer.data.token);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="wallet-login">
      <Button block fill="outline" loading={busy} onClick={() => void start()} data-testid="wallet-login">
        {t`Log in with a wallet`}
      </Button>
      <FormError message={failure} />
    </div>
  );
}
