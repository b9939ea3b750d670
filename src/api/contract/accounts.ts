// Accounts and sessions: registration, the four ways to log in, codes, password changes and the
// current user's data (spec §4, §7; issue 2).
import { Type, type Static } from '@sinclair/typebox';
import {
  CountryCallingCode, EmailAddress, InviteCode, Password, PhoneNumber, VerificationCode,
} from './common.ts';

export const CodePurpose = Type.Union([
  Type.Literal('register'), Type.Literal('login'), Type.Literal('reset'),
  // Setting the withdrawal password: needs a session, and goes to the account's own address only.
  Type.Literal('withdrawPassword'),
  // Unbinding Google Authenticator: the same, to the account's own address only.
  Type.Literal('googleUnbind'),
  // A fresh proof before adding a way into the account (security.ts FreshProof): the same.
  Type.Literal('addLogin'),
]);
export type CodePurpose = Static<typeof CodePurpose>;
export const AccountType = Type.Union([Type.Literal('email'), Type.Literal('phone')]);
export type AccountType = Static<typeof AccountType>;

/** A guest's chosen account name; the server keeps it in lower case ("Bob" and "bob" are one account). */
export const GuestAccountName = Type.String({ minLength: 3, maxLength: 32, pattern: '^[A-Za-z0-9_.-]+$' });
/** What a login form may send as `account`: an e-mail, a phone number or a guest name. */
export const AccountIdentifier = Type.String({ minLength: 3, maxLength: 254 });

export const GetEmailCaptchaQuery = Type.Object({ email: EmailAddress, type: CodePurpose },
  { additionalProperties: false });
export const GetPhoneCaptchaQuery = Type.Object({
  phone: PhoneNumber, countryCode: CountryCallingCode, type: CodePurpose,
}, { additionalProperties: false });
/**
 * The answer to a code request, the same whether or not an account uses the address: an address
 * in use asked for a register code, or one nobody uses asked for a login or reset code, gets a
 * notice instead of a code. Phone numbers are taken in E.164 ("+001" is "+1", trunk prefix dropped).
 */
export const CaptchaSent = Type.Object({
  /** Seconds before another code may be requested for the same target. */
  resendAfterSeconds: Type.Integer(),
  expiresInSeconds: Type.Integer(),
});

export const RegisterBody = Type.Object({
  accountType: AccountType,
  /** An e-mail address or national phone number, according to accountType. */
  account: Type.String({ minLength: 3, maxLength: 254 }),
  countryCode: Type.Optional(CountryCallingCode),
  password: Password,
  code: VerificationCode,
  inviteCode: Type.Optional(InviteCode),
}, { additionalProperties: false });
export type RegisterBody = Static<typeof RegisterBody>;

export const LoginBody = Type.Object({
  account: AccountIdentifier,
  password: Type.String({ minLength: 1, maxLength: 64 }),
  countryCode: Type.Optional(CountryCallingCode),
}, { additionalProperties: false });
export type LoginBody = Static<typeof LoginBody>;

export const EmailLoginBody = Type.Object({ email: EmailAddress, code: VerificationCode },
  { additionalProperties: false });
export const PhoneLoginBody = Type.Object({
  phone: PhoneNumber, countryCode: CountryCallingCode, code: VerificationCode,
}, { additionalProperties: false });

export const TokenResult = Type.Object({ token: Type.String() });
export type TokenResult = Static<typeof TokenResult>;

export const GuestLoginBody = Type.Object({ account: GuestAccountName }, { additionalProperties: false });
export const GuestLoginResult = Type.Object({
  token: Type.String(),
  /** Shown to the guest once; it can be changed in the personal centre. */
  initialPassword: Type.String(),
});
export type GuestLoginResult = Static<typeof GuestLoginResult>;

export const ResetPasswordBody = Type.Object({
  accountType: AccountType,
  account: Type.String({ minLength: 3, maxLength: 254 }),
  countryCode: Type.Optional(CountryCallingCode),
  code: VerificationCode,
  password: Password,
  /**
   * Ours, required when Google Authenticator is bound (google_code_required once the code is
   * right): the authenticator's code, or one of the recovery codes.
   */
  googleCode: Type.Optional(Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' })),
  recoveryCode: Type.Optional(Type.String({ minLength: 8, maxLength: 32 })),
}, { additionalProperties: false });
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

export const ChangePasswordBody = Type.Object({
  oldPassword: Type.String({ minLength: 1, maxLength: 64 }),
  newPassword: Password,
  /** Required when Google Authenticator is bound (google_code_required). */
  googleCode: Type.Optional(Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' })),
}, { additionalProperties: false });

export const CheckAccountQuery = Type.Object({
  account: AccountIdentifier,
  countryCode: Type.Optional(CountryCallingCode),
}, { additionalProperties: false });
export const CheckAccountResult = Type.Object({ exists: Type.Boolean() });

export const Gender = Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Literal('other')]);
export const IsoDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });

export const UserInfo = Type.Object({
  id: Type.String(),
  /** How the user logs in: the e-mail, "+code phone", or the guest name. */
  account: Type.String(),
  accountType: Type.Union([Type.Literal('email'), Type.Literal('phone'), Type.Literal('guest')]),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  countryCode: Type.Union([Type.String(), Type.Null()]),
  hasInitialPassword: Type.Boolean(),
  inviteCode: Type.String(),
  surname: Type.Union([Type.String(), Type.Null()]),
  firstName: Type.Union([Type.String(), Type.Null()]),
  gender: Type.Union([Gender, Type.Null()]),
  birthday: Type.Union([IsoDate, Type.Null()]),
  country: Type.Union([Type.String(), Type.Null()]),
  address: Type.Union([Type.String(), Type.Null()]),
  contactPhone: Type.Union([Type.String(), Type.Null()]),
  /** Server wall-clock time, UTC+8, "YYYY-MM-DD HH:mm:ss" (spec §9). */
  createTime: Type.String(),
  /**
   * How many times the account has logged in (sessions opened, registration's included): 1 during
   * the very first session, so the app greets a new user rather than welcoming them back.
   */
  loginCount: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Whether a withdrawal password is set (withdrawals need one). */
  hasWithdrawPassword: Type.Optional(Type.Boolean()),
  /** Identity verification level reached (issue 11): 0 unverified, 1 basic approved, 2 advanced approved. */
  kycLevel: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
});
export type UserInfo = Static<typeof UserInfo>;

/** The personal data fields, each of which can be set or cleared. */
export const personalDataFields = ['surname', 'firstName', 'gender', 'birthday', 'country', 'address', 'contactPhone'] as const;
export type PersonalDataField = (typeof personalDataFields)[number];

/**
 * Personal data (route gerenziliao), sent to POST /user/appUser/updateKYC: the fields to set, and
 * in `clear` the fields to empty (a field is never both). Nothing given, nothing changes: refused.
 */
export const PersonalDataBody = Type.Object({
  surname: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  firstName: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  gender: Type.Optional(Gender),
  birthday: Type.Optional(IsoDate),
  country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
  address: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  contactPhone: Type.Optional(Type.String({ minLength: 4, maxLength: 24, pattern: '^\\+?[0-9 ]+$' })),
  clear: Type.Optional(Type.Array(Type.Union(personalDataFields.map((field) => Type.Literal(field))),
    { uniqueItems: true, maxItems: personalDataFields.length })),
}, { additionalProperties: false, minProperties: 1 });
export type PersonalDataBody = Static<typeof PersonalDataBody>;

/** The ages a birthday may give, in whole years: of legal age, and no older than people live. */
export const birthdayAgeYears = { min: 18, max: 120 } as const;

/** The same day `years` earlier; 29 February becomes 28 February in a year without it. */
function yearsBefore(isoDate: string, years: number): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  const lastDay = new Date(Date.UTC(year - years, month, 0)).getUTCDate();
  return new Date(Date.UTC(year - years, month - 1, Math.min(day, lastDay))).toISOString().slice(0, 10);
}

/**
 * The earliest and latest birthday (YYYY-MM-DD) allowed on the day `today` (YYYY-MM-DD): born on
 * `latest`, one turns 18 that day; born the day before `earliest`, one would be 121.
 */
export function birthdayRange(today: string): { earliest: string; latest: string } {
  const beforeOldest = new Date(`${yearsBefore(today, birthdayAgeYears.max + 1)}T00:00:00Z`);
  beforeOldest.setUTCDate(beforeOldest.getUTCDate() + 1);
  return { earliest: beforeOldest.toISOString().slice(0, 10), latest: yearsBefore(today, birthdayAgeYears.min) };
}

export const ActiveReportQuery = Type.Object({
  path: Type.Optional(Type.String({ maxLength: 200 })),
}, { additionalProperties: false });
