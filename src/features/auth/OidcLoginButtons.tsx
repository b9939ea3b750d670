// One "Continue with <provider>" button per configured OpenID Connect provider (issue 11), under
// the login form. A tap asks the server to start the flow (state, nonce and PKCE stay there) and
// leaves for the provider; the provider sends the browser back through the server, which lands on
// #/home with the session, or on #/login?oidcError=<code>, shown here. No provider: nothing shows.
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { failureText, translateError } from '../../api/errorMessages.ts';
import { FormError } from '../../components/form/FormError.tsx';
import { useOidcProvidersQuery, useOidcStartMutation } from '../../entities/session/externalLoginApi.ts';
import './externalLoginTexts.ts';

export function OidcLoginButtons() {
  const { t } = useLingui();
  const providers = useOidcProvidersQuery();
  const [startFlow] = useOidcStartMutation();
  const [searchParams] = useSearchParams();
  const [leaving, setLeaving] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const returned = searchParams.get('oidcError');
  const returnedText = returned ? (translateError(returned) ?? t`The login with the provider did not succeed. Please try again.`) : undefined;

  if (!providers.data?.length) return returnedText ? <FormError message={returnedText} /> : null;

  const start = async (provider: string) => {
    setFailure(undefined);
    setLeaving(provider);
    const answer = await startFlow({ provider });
    if (answer.error) {
      setLeaving(undefined);
      return setFailure(failureText(answer.error));
    }
    window.location.assign(answer.data.authorizationUrl);
  };

  return (
    <div className="oidc-logins">
      {providers.data.map((provider) => (
        <Button key={provider.id} block fill="outline" loading={leaving === provider.id} disabled={leaving !== undefined}
          onClick={() => void start(provider.id)} data-testid={`oidc-login-${provider.id}`}>
          {t`Continue with ${provider.name}`}
        </Button>
      ))}
      <FormError message={failure ?? returnedText} />
    </div>
  );
}
