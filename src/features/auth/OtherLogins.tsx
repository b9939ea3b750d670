// The ways to log in without a password (issue 11), under the login form: a passkey, an
// Ethereum wallet (Sign-In with Ethereum) and each configured OpenID Connect provider. Each
// button is a component of its own area; a way that is not available here (no wallet in the
// browser, no provider configured, no WebAuthn) hides its button.
import { useLingui } from '@lingui/react/macro';
import { PasskeyLoginButton } from './PasskeyLoginButton.tsx';
import { WalletLoginButton } from './WalletLoginButton.tsx';
import { OidcLoginButtons } from './OidcLoginButtons.tsx';

export function OtherLogins() {
  const { t } = useLingui();
  return (
    <section className="auth-other-logins" aria-label={t`Other ways to log in`}>
      <PasskeyLoginButton />
      <WalletLoginButton />
      <OidcLoginButtons />
    </section>
  );
}
