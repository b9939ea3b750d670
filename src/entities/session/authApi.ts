// Endpoints of accounts and sessions (spec §7), injected into the one api.
import type { Static } from '@sinclair/typebox';
import { api } from '../../api/api.ts';
import type {
  CaptchaSent, CodePurpose, GuestLoginResult, PersonalDataBody, RegisterBody, ResetPasswordBody, TokenResult, UserInfo,
} from '../../api/contract/accounts.ts';
import { paths } from '../../api/contract/paths.ts';
// The messages of these calls' error codes (codes, passwords, accounts), kept off the first screen.
import './accountErrorTexts.ts';

// Every call a form makes is quiet: the form shows a refusal under the field it concerns, or
// under itself (components/form), instead of a toast over its button. Logout and the user-info
// read keep the toast: nothing else shows their failure.
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendEmailCode: build.mutation<Static<typeof CaptchaSent>, { email: string; type: CodePurpose }>({
      query: (params) => ({ url: paths.emailCaptcha, params, quiet: true }),
    }),
    sendPhoneCode: build.mutation<Static<typeof CaptchaSent>, { phone: string; countryCode: string; type: CodePurpose }>({
      query: (params) => ({ url: paths.phoneCaptcha, params, quiet: true }),
    }),
    register: build.mutation<TokenResult, RegisterBody>({
      query: (body) => ({ url: paths.register, method: 'POST', body, quiet: true }),
    }),
    login: build.mutation<TokenResult, { account: string; password: string; countryCode?: string }>({
      query: (body) => ({ url: paths.login, method: 'POST', body, quiet: true }),
    }),
    emailLogin: build.mutation<TokenResult, { email: string; code: string }>({
      query: (body) => ({ url: paths.emailLogin, method: 'POST', body, quiet: true }),
    }),
    phoneLogin: build.mutation<TokenResult, { phone: string; countryCode: string; code: string }>({
      query: (body) => ({ url: paths.phoneLogin, method: 'POST', body, quiet: true }),
    }),
    guestLogin: build.mutation<GuestLoginResult, { account: string }>({
      query: (body) => ({ url: paths.guestLogin, method: 'POST', body, quiet: true }),
    }),
    resetPassword: build.mutation<null, ResetPasswordBody>({
      query: (body) => ({ url: paths.resetPassword, method: 'POST', body, quiet: true }),
    }),
    checkAccount: build.mutation<{ exists: boolean }, { account: string; countryCode?: string }>({
      query: (params) => ({ url: paths.checkAccount, params, quiet: true }),
    }),
    getMyUserInfo: build.query<UserInfo, void>({
      query: () => ({ url: paths.myUserInfo }),
      providesTags: ['User'],
    }),
    changePassword: build.mutation<null, { oldPassword: string; newPassword: string; googleCode?: string }>({
      query: (body) => ({ url: paths.changePassword, method: 'POST', body, quiet: true }),
    }),
    updatePersonalData: build.mutation<UserInfo, PersonalDataBody>({
      query: (body) => ({ url: paths.updatePersonalData, method: 'POST', body, quiet: true }),
      invalidatesTags: ['User'],
    }),
    logout: build.mutation<null, void>({
      query: () => ({ url: paths.logout, method: 'POST', body: {} }),
    }),
  }),
});

export const {
  useSendEmailCodeMutation, useSendPhoneCodeMutation, useRegisterMutation, useLoginMutation, useEmailLoginMutation,
  usePhoneLoginMutation, useGuestLoginMutation, useResetPasswordMutation, useCheckAccountMutation,
  useGetMyUserInfoQuery, useChangePasswordMutation, useUpdatePersonalDataMutation, useLogoutMutation,
} = authApi;
