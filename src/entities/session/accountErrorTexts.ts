// The messages of the error codes of accounts, passwords and verification codes, registered with
// the account calls that meet them (authApi.ts) instead of with the first screen (DESIGN §8). The
// pages whose forms make those calls (login, personal data, security, withdrawal, settlement) load
// the account catalog, which holds these texts (lingui.config.ts: entities/session).
import { msg } from '@lingui/core/macro';
import { registerErrorMessages } from '../../api/errorMessages.ts';

registerErrorMessages({
  code_invalid: msg`The verification code is wrong. Please check it or request a new one.`,
  code_expired: msg`The verification code has expired. Please request a new one.`,
  code_send_too_soon: msg`Please wait before requesting another code.`,
  account_exists: msg`Account already exists, please log in with your password.`,
  account_not_found: msg`No account was found. Please register first.`,
  credentials_invalid: msg`The account or password is wrong.`,
  password_weak: msg`The password must be 8–64 characters with at least one letter and one digit.`,
  password_common: msg`This password is one of the most commonly used ones. Please choose another.`,
  password_unchanged: msg`The new password must differ from the current one.`,
  password_same_as_withdraw_password: msg`Your login password must differ from your withdrawal password.`,
  withdraw_password_same_as_login: msg`The withdrawal password must differ from your login password.`,
  too_many_attempts: msg`Too many wrong passwords. Please wait, or reset your password.`,
  invite_code_invalid: msg`The invitation code does not exist.`,
});
