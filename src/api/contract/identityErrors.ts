// The stable error codes of identity and account security (issue 11), spread into common.ts's
// errorCodes. A file of its own importing nothing (as tradingErrors.ts), one list per area.
export const kycErrorCodes = [
  'kyc_pending', 'kyc_already_approved', 'kyc_basic_required', 'kyc_photo_invalid', 'kyc_not_found',
  'kyc_level_required', 'kyc_settings_invalid',
] as const;
export const twoFactorErrorCodes = [
  'google_code_required', 'google_code_invalid', 'google_not_bound', 'google_already_bound', 'google_secret_unknown',
  'recovery_code_invalid', 'google_no_contact', 'login_ticket_invalid',
] as const;
export const externalLoginErrorCodes = [
  'siwe_message_invalid', 'siwe_nonce_invalid', 'siwe_domain_mismatch', 'siwe_signature_invalid', 'siwe_expired',
  'wallet_linked_elsewhere', 'oidc_provider_unknown', 'oidc_state_invalid', 'oidc_callback_invalid',
  'identity_linked_elsewhere', 'oidc_provider_refused', 'linked_login_not_found', 'last_login_method',
  // A way in is added with a fresh proof (security.ts FreshProof); a link's session must outlive its flow.
  'password_required', 'oidc_session_ended',
] as const;
export const passkeyErrorCodes = [
  'passkey_challenge_invalid', 'passkey_verification_failed', 'passkey_not_found', 'passkey_unknown',
] as const;
export const sessionErrorCodes = ['session_not_found'] as const;
/** The back office: an operator's own authenticator rotation. */
export const operatorTotpErrorCodes = ['operator_totp_ticket_invalid', 'operator_totp_code_invalid', 'operator_totp_current_invalid'] as const;
export const identityErrorCodes = [
  ...kycErrorCodes, ...twoFactorErrorCodes, ...externalLoginErrorCodes, ...passkeyErrorCodes, ...sessionErrorCodes, ...operatorTotpErrorCodes,
] as const;
