// Google Authenticator calls (issue 11), injected into the one api: the state, a new key, binding
// and unbinding (security centre), and the second step of every login of a bound account (login page).
import { api } from '../../api/api.ts';
import type { TokenResult } from '../../api/contract/accounts.ts';
import {
  twoFactorPaths, type BindGoogleAuthBody, type CheckGoogleAuthResult, type GoogleAuthState, type GoogleKey,
  type GoogleSecretLoginBody, type LoginSecondStepBody, type RecoveryCodes, type UnbindGoogleAuthBody,
} from '../../api/contract/security.ts';

// Form calls are quiet: each form shows its refusal in place.
export const twoFactorApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * `{ quiet: true }` where the state only decides whether a form shows a code field (withdrawal,
     * password change): a failed read then shows nothing, and the server's google_code_required
     * reveals the field instead.
     */
    googleAuthState: build.query<GoogleAuthState, { quiet?: boolean } | void>({
      query: (arg) => ({ url: twoFactorPaths.googleAuthState, quiet: arg?.quiet === true }),
      providesTags: ['TwoFactor'],
    }),
    generateGoogleKey: build.mutation<GoogleKey, void>({
      query: () => ({ url: twoFactorPaths.generateGoogleKey, quiet: true }),
    }),
    bindGoogleAuth: build.mutation<RecoveryCodes, BindGoogleAuthBody>({
      query: (body) => ({ url: twoFactorPaths.bindGoogleAuth, method: 'POST', body, quiet: true }),
    }),
    unbindGoogleAuth: build.mutation<null, UnbindGoogleAuthBody>({
      query: (body) => ({ url: twoFactorPaths.unbindGoogleAuth, method: 'POST', body, quiet: true }),
      invalidatesTags: ['TwoFactor'],
    }),
    checkGoogleAuth: build.mutation<CheckGoogleAuthResult, { account: string; countryCode?: string }>({
      query: (params) => ({ url: twoFactorPaths.checkGoogleAuth, params, quiet: true }),
    }),
    googleSecretLogin: build.mutation<TokenResult, GoogleSecretLoginBody>({
      query: (body) => ({ url: twoFactorPaths.googleSecretLogin, method: 'POST', body, quiet: true }),
    }),
    /** Completes any login of a bound account with the ticket its first factor earned. */
    loginSecondStep: build.mutation<TokenResult, LoginSecondStepBody>({
      query: (body) => ({ url: twoFactorPaths.loginSecondStep, method: 'POST', body, quiet: true }),
    }),
  }),
});

export const {
  useGoogleAuthStateQuery, useGenerateGoogleKeyMutation, useBindGoogleAuthMutation, useUnbindGoogleAuthMutation,
  useCheckGoogleAuthMutation, useGoogleSecretLoginMutation, useLoginSecondStepMutation,
} = twoFactorApi;
