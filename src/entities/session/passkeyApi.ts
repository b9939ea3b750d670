// Passkey calls (issue 11), injected into the one api: the user's passkeys (security centre) and
// the options and login of the login page's passkey button. Every call is quiet: each caller shows
// its refusal in place.
import { api } from '../../api/api.ts';
import type { TokenResult } from '../../api/contract/accounts.ts';
import {
  passkeyPaths, type FreshProof, type PasskeyInfo, type PasskeyLoginBody, type PasskeyOptions, type PasskeyRegisterBody,
} from '../../api/contract/security.ts';

export const passkeyApi = api.injectEndpoints({
  endpoints: (build) => ({
    myPasskeys: build.query<PasskeyInfo[], void>({
      query: () => ({ url: passkeyPaths.list, quiet: true }),
      providesTags: ['Passkey'],
    }),
    /** Adding a passkey needs a fresh proof (FreshProof): tried without one first, asked for when refused. */
    passkeyRegisterOptions: build.mutation<PasskeyOptions, FreshProof>({
      query: (body) => ({ url: passkeyPaths.registerOptions, method: 'POST', body, quiet: true }),
    }),
    registerPasskey: build.mutation<PasskeyInfo, PasskeyRegisterBody>({
      query: (body) => ({ url: passkeyPaths.register, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Passkey'],
    }),
    removePasskey: build.mutation<null, { id: string }>({
      query: (body) => ({ url: passkeyPaths.remove, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Passkey'],
    }),
    passkeyLoginOptions: build.mutation<PasskeyOptions, void>({
      query: () => ({ url: passkeyPaths.loginOptions, method: 'POST', body: {}, quiet: true }),
    }),
    passkeyLogin: build.mutation<TokenResult, PasskeyLoginBody>({
      query: (body) => ({ url: passkeyPaths.login, method: 'POST', body, quiet: true }),
    }),
  }),
});

export const {
  useMyPasskeysQuery, usePasskeyRegisterOptionsMutation, useRegisterPasskeyMutation, useRemovePasskeyMutation,
  usePasskeyLoginOptionsMutation, usePasskeyLoginMutation,
} = passkeyApi;

/** Whether this browser can use passkeys at all (what @simplewebauthn/browser checks, without loading it). */
export const browserSupportsPasskeys = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'
  && typeof navigator.credentials?.create === 'function';

/** @simplewebauthn/browser, loaded only when a passkey is used (not in the login page's chunk). */
export const loadWebAuthn = () => import('@simplewebauthn/browser');

/**
 * Whether a WebAuthn failure is the user's own choice (the system sheet closed, the time ran out,
 * nothing chosen): NotAllowedError / AbortError, shown as "not used" rather than as an error.
 */
export function isPasskeyCancelled(error: unknown): boolean {
  const name = (error as { name?: string; cause?: { name?: string } } | undefined);
  return name?.name === 'NotAllowedError' || name?.name === 'AbortError' || name?.cause?.name === 'NotAllowedError';
}
