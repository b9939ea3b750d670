// The messages of the Google Authenticator error codes, in the account catalog. They come with the
// second factor's field (SecondFactorFields.tsx): every page that can meet these codes shows that
// field and loads the account catalog (the login, personal, security, withdrawal and payout pages).
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
  login_ticket_invalid: msg`This login has expired or was already completed. Please log in again.`,
});
