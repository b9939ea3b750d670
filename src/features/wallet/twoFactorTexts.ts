// The Google Authenticator codes a withdrawal can be refused with (issue 11), in the wallet
// catalog: the withdrawal page loads no other catalog holding them.
import { msg } from '@lingui/core/macro';
import { registerErrorMessages } from '../../api/errorMessages.ts';

registerErrorMessages({
  google_code_required: msg`Please enter the 6-digit code from Google Authenticator.`,
  google_code_invalid: msg`The Google Authenticator code is wrong or was already used. Please wait for the next code.`,
});
