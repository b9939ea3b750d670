// The messages of the Google Authenticator error codes met in the security centre, the withdrawal
// page and the change-password popup, in the identity catalog; the login page registers the same
// texts from the account catalog (features/session/twoFactorTexts.ts).
import { msg } from '@lingui/core/macro';
import { registerErrorMessages } from '../../api/errorMessages.ts';

registerErrorMessages({
  google_code_required: msg`Please enter the 6-digit code from Google Authenticator.`,
  google_code_invalid: msg`The Google Authenticator code is wrong or was already used. Please wait for the next code.`,
  google_not_bound: msg`Google Authenticator is not bound to this account.`,
  google_already_bound: msg`Google Authenticator is already bound. Unbind it first.`,
  google_secret_unknown: msg`This key has expired. Please start again.`,
  recovery_code_invalid: msg`The recovery code is wrong or was already used.`,
  google_no_contact: msg`Add an e-mail or phone to your account before binding Google Authenticator.`,
});
