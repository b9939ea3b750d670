// The messages of the wallet and OpenID Connect error codes met in the security centre, in the
// identity catalog (features/security). The login page registers the same texts from the account
// catalog (features/auth/externalLoginTexts.ts).
import { msg } from '@lingui/core/macro';
import { registerErrorMessages } from '../../api/errorMessages.ts';

registerErrorMessages({
  siwe_message_invalid: msg`The wallet message is not a valid Sign-In with Ethereum message.`,
  siwe_nonce_invalid: msg`This wallet message was already used or was not issued here. Please try again.`,
  siwe_domain_mismatch: msg`This wallet message was written for another site.`,
  siwe_signature_invalid: msg`The wallet signature does not match the message.`,
  siwe_expired: msg`The wallet message has expired. Please try again.`,
  wallet_linked_elsewhere: msg`This wallet already logs in to another account.`,
  oidc_provider_unknown: msg`This login provider is not available.`,
  oidc_state_invalid: msg`This login attempt has expired or was already used. Please try again.`,
  oidc_callback_invalid: msg`The login provider's answer could not be verified. Please try again.`,
  oidc_provider_refused: msg`The login was cancelled at the provider.`,
  identity_linked_elsewhere: msg`This login is already linked to another account.`,
  linked_login_not_found: msg`This login is not linked to your account.`,
  last_login_method: msg`This is the only way to log in to your account: link another one before removing it.`,
  password_required: msg`Please confirm it is you with your password.`,
  oidc_session_ended: msg`You logged out before the provider answered, so nothing was linked. Please log in and try again.`,
});
