// Account security on the wire (issue 11): Google Authenticator (TOTP) binding and login,
// Sign-In with Ethereum, OpenID Connect, passkeys (WebAuthn), sessions and login history.
// Paths named by the spec are kept exactly (spec §7); the rest are ours, under the same prefixes.
// Each area's request and response schemas live in the section its owner fills below.
import { Type, type Static } from '@sinclair/typebox';

export const twoFactorPaths = {
  /** Whether the login form must ask this account for a Google code (?account=&countryCode=). */
  checkGoogleAuth: '/app/checkGoogleAuth',
  /** A new secret for the logged-in user: { secret, otpauthUri } (valid for a few minutes until bound). */
  generateGoogleKey: '/app/generateGoogleKey',
  /** { account, googleCode, password?, countryCode? } → { token }. */
  googleSecretLogin: '/app/googleSecretLogin',
  /**
   * Ours: { loginTicket, googleCode | recoveryCode } → { token }. Every login into an account with
   * Google Authenticator bound (password, e-mail or phone code, wallet, OpenID) answers
   * google_code_required with `result.loginTicket` instead of a token; this completes it.
   */
  loginSecondStep: '/app/loginSecondStep',
  /** { secret, code } → { recoveryCodes } shown once. */
  bindGoogleAuth: '/user/appUser/bindGoogleAuth',
  /** Ours: unbinding needs a code to the account's e-mail or phone plus a TOTP or recovery code. */
  unbindGoogleAuth: '/user/appUser/unbindGoogleAuth',
  /** Ours: { bound, boundAt?, recoveryCodesLeft }. */
  googleAuthState: '/user/appUser/googleAuthState',
} as const;

export const externalLoginPaths = {
  /** Ours: a single-use nonce and the fields of the EIP-4361 message to sign. */
  siweNonce: '/app/siwe/nonce',
  /** Ours: { message, signature } → { token } (creates an account on the first login). */
  siweLogin: '/app/siwe/login',
  /** Ours: { message, signature } links the wallet to the logged-in account. */
  siweLink: '/user/appUser/linkWallet',
  /** Ours: the configured OpenID Connect providers: [{ id, name }]. */
  oidcProviders: '/app/oidc/providers',
  /** Ours: { provider, link? } → { authorizationUrl } (state, nonce and PKCE kept on the server). */
  oidcStart: '/app/oidc/start',
  /** The provider redirects the browser here (GET, not under the encrypted protocol). */
  oidcCallback: '/app/oidc/callback',
  /** Ours: the user's linked wallets and OpenID identities; unlink one. */
  linkedLogins: '/user/appUser/linkedLogins',
  unlinkLogin: '/user/appUser/unlinkLogin',
  /** Ours: every way into the account but the password: passkeys, wallets, identities, other sessions. */
  waysIn: '/user/appUser/waysIn',
  /** Ours: { FreshProof } removes them all in one step (after a password change or reset). */
  removeOtherWaysIn: '/user/appUser/removeOtherWaysIn',
} as const;

export const passkeyPaths = {
  registerOptions: '/user/appPasskey/registerOptions',
  register: '/user/appPasskey/register',
  list: '/user/appPasskey/listMy',
  remove: '/user/appPasskey/remove',
  loginOptions: '/app/passkey/loginOptions',
  login: '/app/passkey/login',
} as const;

export const sessionPaths = {
  /** The user's active sessions and devices, the current one marked. */
  list: '/user/appSession/listMy',
  /** { id } ends one of the user's sessions. */
  end: '/user/appSession/end',
  /** Ends every session of the user but the current one. */
  endOthers: '/user/appSession/endOthers',
  /** The user's login history (paged). */
  history: '/user/appSession/loginHistory',
} as const;

/** Operator calls about the operator's own second factor. */
export const operatorSecurityPaths = {
  /** A new TOTP secret for the logged-in operator (not yet active): { secret, otpauthUri }. */
  totpStart: '/admin/me/totp',
  /** { ticket, code, currentCode } replaces the operator's TOTP secret (see the Operator TOTP section). */
  totpConfirm: '/admin/me/totp/confirm',
} as const;

/** How a session began: login history's methods. */
export const LoginMethod = Type.Union([
  Type.Literal('password'), Type.Literal('code'), Type.Literal('google'), Type.Literal('wallet'), Type.Literal('oidc'),
  Type.Literal('passkey'), Type.Literal('guest'), Type.Literal('register'),
]);
export type LoginMethod = Static<typeof LoginMethod>;

// ── Google Authenticator (owner: two-factor) ──
// The Google code is a second factor, never the only one: googleSecretLogin needs the password
// too. Codes are RFC 6238 (SHA-1, 6 digits, 30 s), accepted one step either side and once only.

/** The 6 digits an authenticator app shows. */
export const GoogleCode = Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' });
/** A recovery code as shown at binding ("abcde-fghjk"); case, spaces and dashes are ignored. */
export const RecoveryCode = Type.String({ minLength: 8, maxLength: 32 });

export const CheckGoogleAuthQuery = Type.Object({
  account: Type.String({ minLength: 3, maxLength: 254 }),
  countryCode: Type.Optional(Type.String({ minLength: 1, maxLength: 4, pattern: '^[0-9]+$' })),
}, { additionalProperties: false });
/** false for an account that does not exist (as for one without a binding). */
export const CheckGoogleAuthResult = Type.Object({ bound: Type.Boolean() });
export type CheckGoogleAuthResult = Static<typeof CheckGoogleAuthResult>;

export const GoogleKey = Type.Object({
  /** Base32, for typing into the app by hand. */
  secret: Type.String(),
  /** otpauth://totp/Bourse:<account>?secret=…&issuer=Bourse, for the QR code. */
  otpauthUri: Type.String(),
});
export type GoogleKey = Static<typeof GoogleKey>;

export const BindGoogleAuthBody = Type.Object({
  secret: Type.String({ minLength: 16, maxLength: 128 }),
  code: GoogleCode,
}, { additionalProperties: false });
export type BindGoogleAuthBody = Static<typeof BindGoogleAuthBody>;
/** Ten single-use recovery codes, shown this once (the server keeps only their hashes). */
export const RecoveryCodes = Type.Object({ recoveryCodes: Type.Array(Type.String()) });
export type RecoveryCodes = Static<typeof RecoveryCodes>;

/** Password and either a Google code or a recovery code (each single use). */
export const GoogleSecretLoginBody = Type.Object({
  account: Type.String({ minLength: 3, maxLength: 254 }),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  googleCode: Type.Optional(GoogleCode),
  recoveryCode: Type.Optional(RecoveryCode),
  countryCode: Type.Optional(Type.String({ minLength: 1, maxLength: 4, pattern: '^[0-9]+$' })),
}, { additionalProperties: false });
export type GoogleSecretLoginBody = Static<typeof GoogleSecretLoginBody>;

/** The ticket a first factor earned (google_code_required's result.loginTicket) and the code. */
export const LoginSecondStepBody = Type.Object({
  loginTicket: Type.String({ minLength: 20, maxLength: 100 }),
  googleCode: Type.Optional(GoogleCode),
  recoveryCode: Type.Optional(RecoveryCode),
}, { additionalProperties: false });
export type LoginSecondStepBody = Static<typeof LoginSecondStepBody>;

/**
 * A code sent to the account's own e-mail (getEmailCaptcha type=googleUnbind) or phone
 * (getPhoneCaptcha type=googleUnbind), plus a Google code or a recovery code.
 */
export const UnbindGoogleAuthBody = Type.Object({
  emailCode: Type.Optional(Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' })),
  phoneCode: Type.Optional(Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' })),
  googleCode: Type.Optional(GoogleCode),
  recoveryCode: Type.Optional(RecoveryCode),
}, { additionalProperties: false });
export type UnbindGoogleAuthBody = Static<typeof UnbindGoogleAuthBody>;

export const GoogleAuthState = Type.Object({
  bound: Type.Boolean(),
  /** "yyyy-MM-dd HH:mm:ss" server time, when bound. */
  boundAt: Type.Optional(Type.String()),
  recoveryCodesLeft: Type.Integer(),
});
export type GoogleAuthState = Static<typeof GoogleAuthState>;

// ── A fresh proof to add a way in (owner: external logins) ──
// Adding a passkey (registerOptions), linking an OpenID identity (oidcStart with link) or a wallet
// (linkWallet), and removing every other way in need more than the session: with Google
// Authenticator bound, its code or a recovery code; otherwise the password, or a code sent to the
// account's own e-mail or phone (getEmailCaptcha / getPhoneCaptcha type=addLogin: how an account
// whose password nobody knows proves itself); an account with none of these (a wallet or provider
// account without e-mail) needs the session alone. Missing: password_required or
// google_code_required; wrong: credentials_invalid, google_code_invalid, recovery_code_invalid or
// code_invalid. A refusal changes nothing.
const SixDigits = Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' });
export const FreshProofFields = {
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  googleCode: Type.Optional(GoogleCode),
  recoveryCode: Type.Optional(RecoveryCode),
  emailCode: Type.Optional(SixDigits),
  phoneCode: Type.Optional(SixDigits),
};
export const FreshProof = Type.Object(FreshProofFields, { additionalProperties: false });
export type FreshProof = Static<typeof FreshProof>;

// ── Wallet and OpenID Connect (owner: external logins) ──
// Sign-In with Ethereum (EIP-4361): the app asks for a nonce and the message's fields, the wallet
// signs the message text (personal_sign), the server checks domain, URI, nonce (single use, five
// minutes), time bounds and the signature (EOA, offline). OpenID Connect: authorization code with
// PKCE (S256), state and nonce kept on the server; the answer to oidcStart sets an HttpOnly cookie
// binding the flow to this browser (RFC 9700 §4.7), which the callback requires (a client must keep
// it, as a browser does); the callback sets a short-lived `token` cookie and sends the browser back
// to the app (#/home, or #/login?oidcError=<code> on failure).

/** An Ethereum address as the wallet writes it (any case; stored lower-cased). */
export const EthAddress = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' });
export const SiweNonceQuery = Type.Object({
  chainId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 })),
}, { additionalProperties: false });
/** What the message to sign must say: the app writes the EIP-4361 text from these fields. */
export const SiweNonceResult = Type.Object({
  nonce: Type.String(), domain: Type.String(), uri: Type.String(), chainId: Type.Integer(), version: Type.Literal('1'),
  statement: Type.String(),
  /** ISO 8601 times, as they appear in the message. */
  issuedAt: Type.String(), expirationTime: Type.String(),
});
export type SiweNonceResult = Static<typeof SiweNonceResult>;
export const SiweBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: 2000 }),
  signature: Type.String({ pattern: '^0x[0-9a-fA-F]{130}$' }),
}, { additionalProperties: false });
export type SiweBody = Static<typeof SiweBody>;
/** linkWallet: the signed message and the fresh proof (see FreshProof). */
export const SiweLinkBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: 2000 }),
  signature: Type.String({ pattern: '^0x[0-9a-fA-F]{130}$' }),
  ...FreshProofFields,
}, { additionalProperties: false });
export type SiweLinkBody = Static<typeof SiweLinkBody>;
/** siweLink's answer: the linked address (lower case). */
export const SiweLinkResult = Type.Object({ address: Type.String() });

export const OidcProvider = Type.Object({ id: Type.String(), name: Type.String() });
export type OidcProvider = Static<typeof OidcProvider>;
export const OidcProvidersResult = Type.Array(OidcProvider);
export const OidcStartBody = Type.Object({
  provider: Type.String({ minLength: 1, maxLength: 32 }),
  /** Link the identity to the logged-in account (needs the session) instead of logging in. */
  link: Type.Optional(Type.Boolean()),
  /** Where in the app to land after success: a hash route such as "/security" (default "/home"). */
  returnTo: Type.Optional(Type.String({ pattern: '^/[A-Za-z0-9/_-]{0,100}$' })),
  /** With link: the fresh proof (see FreshProof). */
  ...FreshProofFields,
}, { additionalProperties: false });
export type OidcStartBody = Static<typeof OidcStartBody>;
export const OidcStartResult = Type.Object({ authorizationUrl: Type.String() });
/** What the provider sends the browser back with. */
export const OidcCallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 2000 })),
  state: Type.Optional(Type.String({ maxLength: 200 })),
  iss: Type.Optional(Type.String({ maxLength: 300 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
  error_description: Type.Optional(Type.String({ maxLength: 1000 })),
});

export const LinkedWallet = Type.Object({
  address: Type.String(), chainId: Type.Integer(), createdAt: Type.Number(), lastUsedAt: Type.Union([Type.Number(), Type.Null()]),
});
export const LinkedIdentity = Type.Object({
  id: Type.String(), provider: Type.String(), providerName: Type.String(), email: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.Number(), lastUsedAt: Type.Union([Type.Number(), Type.Null()]),
});
export const LinkedLoginsResult = Type.Object({
  wallets: Type.Array(LinkedWallet), identities: Type.Array(LinkedIdentity),
  /** Whether the account can also log in with a password (e-mail, phone or guest name): if not, the last link stays. */
  hasPasswordLogin: Type.Boolean(),
});
export type LinkedLoginsResult = Static<typeof LinkedLoginsResult>;
export const UnlinkLoginBody = Type.Object({
  wallet: Type.Optional(EthAddress),
  identityId: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,18}$' })),
}, { additionalProperties: false });
export type UnlinkLoginBody = Static<typeof UnlinkLoginBody>;

/** waysIn: what besides the password opens the account (shown after a password change or reset). */
export const WaysInResult = Type.Object({
  passkeys: Type.Integer(), wallets: Type.Integer(), identities: Type.Integer(),
  /** Live sessions other than the caller's. */
  otherSessions: Type.Integer(),
  /** Whether the password (e-mail, phone or guest name) opens the account: without it nothing is removed. */
  hasPasswordLogin: Type.Boolean(),
});
export type WaysInResult = Static<typeof WaysInResult>;
/** removeOtherWaysIn's answer: how many of each were removed or ended. */
export const WaysInRemoved = Type.Object({
  passkeys: Type.Integer(), wallets: Type.Integer(), identities: Type.Integer(), otherSessions: Type.Integer(),
});
export type WaysInRemoved = Static<typeof WaysInRemoved>;

// ── Passkeys (owner: passkeys) ──
// A passkey's credential id is base64url (WebAuthn's rawId); the browser's answers (attestation
// or assertion, base64url fields) are passed through as @simplewebauthn/browser produces them and
// checked by @simplewebauthn/server. Options come with the id of their single-use challenge.
const Base64Url = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+$' });
export const PasskeyCredentialId = Base64Url(512);
const ChallengeId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const WebAuthnAnswer = <T extends Parameters<typeof Type.Object>[0]>(fields: T) => Type.Object({
  id: PasskeyCredentialId,
  rawId: PasskeyCredentialId,
  type: Type.Literal('public-key'),
  response: Type.Object(fields),
  clientExtensionResults: Type.Record(Type.String(), Type.Unknown()),
  authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
});

/** registerOptions: the fresh proof that lets a passkey be added (see FreshProof). */
export const PasskeyRegisterOptionsBody = FreshProof;
export type PasskeyRegisterOptionsBody = FreshProof;

/** registerOptions and loginOptions answer: the options for navigator.credentials and their challenge's id. */
export const PasskeyOptions = Type.Object({
  challengeId: ChallengeId,
  options: Type.Record(Type.String(), Type.Unknown()),
});
export type PasskeyOptions = Static<typeof PasskeyOptions>;

export const PasskeyRegisterBody = Type.Object({
  challengeId: ChallengeId,
  response: WebAuthnAnswer({
    clientDataJSON: Base64Url(4096),
    attestationObject: Base64Url(16384),
    authenticatorData: Type.Optional(Base64Url(16384)),
    publicKey: Type.Optional(Base64Url(4096)),
    publicKeyAlgorithm: Type.Optional(Type.Integer()),
    transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 8 })),
  }),
  /** What the user calls it ("Phone", "YubiKey"); blank or absent: a name from the device type. */
  name: Type.Optional(Type.String({ maxLength: 64 })),
}, { additionalProperties: false });
export type PasskeyRegisterBody = Static<typeof PasskeyRegisterBody>;

export const PasskeyLoginBody = Type.Object({
  challengeId: ChallengeId,
  response: WebAuthnAnswer({
    clientDataJSON: Base64Url(4096),
    authenticatorData: Base64Url(16384),
    signature: Base64Url(1024),
    userHandle: Type.Optional(Base64Url(512)),
  }),
}, { additionalProperties: false });
export type PasskeyLoginBody = Static<typeof PasskeyLoginBody>;

export const PasskeyRemoveBody = Type.Object({ id: PasskeyCredentialId }, { additionalProperties: false });
export type PasskeyRemoveBody = Static<typeof PasskeyRemoveBody>;

/** One of the user's passkeys (listMy); times are milliseconds since the epoch. */
export const PasskeyInfo = Type.Object({
  id: PasskeyCredentialId,
  name: Type.String(),
  createdAt: Type.Number(),
  lastUsedAt: Type.Union([Type.Number(), Type.Null()]),
  /** Whether the passkey is synced to the user's other devices (backup state). */
  backedUp: Type.Boolean(),
  deviceType: Type.Union([Type.Literal('singleDevice'), Type.Literal('multiDevice')]),
  /**
   * When a login showed this passkey's signature counter going backwards (ms; absent or null if
   * never): the credential may have been copied, and the owner should remove it.
   */
  flaggedAt: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
});
export type PasskeyInfo = Static<typeof PasskeyInfo>;


// ── Sessions and login history (owner: sessions) ──

/** Where a device's name comes from: the user agent's browser family and system ("" when unknown). */
const DeviceFields = {
  /** The device key the server compares for new-device notices ("Chrome on Android"). */
  device: Type.String(),
  browser: Type.String(),
  os: Type.String(),
};

/** One of the user's active sessions. Times are ms; addresses are IP addresses (no geolocation). */
export const SessionInfo = Type.Object({
  id: Type.String(),
  /** The session this request came with. */
  current: Type.Boolean(),
  ...DeviceFields,
  userAgent: Type.String(),
  method: Type.Union([LoginMethod, Type.Literal('')]),
  createdAt: Type.Integer(),
  lastUsedAt: Type.Integer(),
  /** The address of the last use, and the one the session began from ("" when not recorded). */
  ip: Type.String(),
  createdIp: Type.String(),
});
export type SessionInfo = Static<typeof SessionInfo>;

export const SessionIdBody = Type.Object({
  id: Type.String({ pattern: '^[1-9][0-9]{0,18}$' }),
}, { additionalProperties: false });
export type SessionIdBody = Static<typeof SessionIdBody>;

/** endOthers: how many sessions ended. */
export const SessionsEnded = Type.Object({ ended: Type.Integer() });
export type SessionsEnded = Static<typeof SessionsEnded>;

export const LoginHistoryQuery = Type.Object({
  pageNo: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
}, { additionalProperties: false });
export type LoginHistoryQuery = Static<typeof LoginHistoryQuery>;

/** One login attempt: a success opened a session; a failure was a wrong password or code. */
export const LoginHistoryEntry = Type.Object({
  id: Type.String(),
  method: LoginMethod,
  success: Type.Boolean(),
  ip: Type.String(),
  ...DeviceFields,
  /** The first successful login from this device (a notice was sent when the account had logged in before). */
  newDevice: Type.Boolean(),
  createdAt: Type.Integer(),
});
export type LoginHistoryEntry = Static<typeof LoginHistoryEntry>;

export const LoginHistoryPage = Type.Object({
  records: Type.Array(LoginHistoryEntry), total: Type.Integer(), size: Type.Integer(), current: Type.Integer(), pages: Type.Integer(),
});
export type LoginHistoryPage = Static<typeof LoginHistoryPage>;

// ── Operator TOTP (owner: back office) ──
// Rotation in two steps: `totpStart` hands out a new secret with a sealed ticket (the secret, the
// operator, a digest of the current secret and an expiry, encrypted and authenticated by the
// server; valid 10 minutes and for one rotation); `totpConfirm` takes the ticket back with a code of
// the new secret and one of the current secret, swaps them and ends the operator's other sessions.

/** totpStart's answer: the new secret (base32), its otpauth:// URI for the QR code, the ticket. */
export const OperatorTotpStart = Type.Object({
  secret: Type.String(),
  otpauthUri: Type.String(),
  ticket: Type.String(),
  /** Until when (ms since the epoch) the ticket may be confirmed. */
  expiresAt: Type.Integer(),
});
export type OperatorTotpStart = Static<typeof OperatorTotpStart>;

const TotpCode = Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' });
export const OperatorTotpConfirmBody = Type.Object({
  ticket: Type.String({ minLength: 20, maxLength: 1000 }),
  /** A code of the new secret. */
  code: TotpCode,
  /** A code of the current secret (not one used before). */
  currentCode: TotpCode,
}, { additionalProperties: false });
export type OperatorTotpConfirmBody = Static<typeof OperatorTotpConfirmBody>;

/** totpConfirm's answer: how many other sessions of the operator ended. */
export const OperatorTotpConfirmed = Type.Object({ sessionsEnded: Type.Integer() });
export type OperatorTotpConfirmed = Static<typeof OperatorTotpConfirmed>;
