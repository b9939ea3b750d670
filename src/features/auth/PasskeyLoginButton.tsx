// "Log in with a passkey" under the login form (issue 11): asks the server for options (a single-use
// challenge, no allow list: the device offers the passkeys it holds for this site), lets the browser
// sign with the one the user picks, and completes the login like every other way (useCompleteLogin).
// Hidden where the browser has no WebAuthn; @simplewebauthn/browser loads only when the page shows
// the button, in a chunk of its own.
import { useEffect, useState } from 'react';
import { Button } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { PasskeyLoginBody } from '../../api/contract/security.ts';
import { failureText } from '../../api/errorMessages.ts';
import { FormError } from '../../components/form/FormError.tsx';
import {
  browserSupportsPasskeys, isPasskeyCancelled, loadWebAuthn, usePasskeyLoginMutation, usePasskeyLoginOptionsMutation,
} from '../../entities/session/passkeyApi.ts';
import { useCompleteLogin } from './useCompleteLogin.ts';
import '../../entities/session/passkeyTexts.ts';

export function PasskeyLoginButton() {
  const { t } = useLingui();
  const [supported] = useState(browserSupportsPasskeys);
  const [getOptions] = usePasskeyLoginOptionsMutation();
  const [login] = usePasskeyLoginMutation();
  const completeLogin = useCompleteLogin();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  // Fetched while the user reads the form, so the tap goes straight to the browser's passkey sheet.
  useEffect(() => { if (supported) void loadWebAuthn().catch(() => undefined); }, [supported]);

  if (!supported) return null;

  const start = async () => {
    setFailure(undefined);
    setBusy(true);
    try {
      const options = await getOptions();
      if (options.error) return setFailure(failureText(options.error));
      const { startAuthentication } = await loadWebAuthn();
      let response;
      try {
        response = await startAuthentication({ optionsJSON: options.data.options as never });
      } catch (error) {
        return setFailure(isPasskeyCancelled(error)
          ? t`No passkey was used. Try again, or log in another way.`
          : t`This browser could not use a passkey here.`);
      }
      const answer = await login({ challengeId: options.data.challengeId, response: response as unknown as PasskeyLoginBody['response'] });
      if (answer.error) return setFailure(failureText(answer.error));
      await completeLogin(answer.data.token);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="passkey-login">
      <Button block fill="outline" loading={busy} onClick={() => void start()} data-testid="passkey-login">
        {t`Log in with a passkey`}
      </Button>
      <FormError message={failure} />
    </div>
  );
}
