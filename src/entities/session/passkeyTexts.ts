// The messages of the passkey error codes, in the account catalog: the login page's passkey button
// and the security centre's passkeys section both meet them, and both pages load that catalog.
import { msg } from '@lingui/core/macro';
import { registerErrorMessages } from '../../api/errorMessages.ts';

registerErrorMessages({
  passkey_challenge_invalid: msg`This passkey request has expired or was already used. Please try again.`,
  passkey_verification_failed: msg`The passkey could not be verified. Please try again, or log in another way.`,
  passkey_not_found: msg`This passkey does not exist or was already removed.`,
  passkey_unknown: msg`This passkey is not registered with Bourse (or was removed). Log in another way and add it in the security centre.`,
});
