// Wallet (Sign-In with Ethereum) and OpenID Connect calls (issue 11), injected into the one api:
// the login page's buttons and the security centre's linked logins. Every call is quiet: each
// caller shows its refusal in place.
import { api } from '../../api/api.ts';
import type { TokenResult } from '../../api/contract/accounts.ts';
import {
  externalLoginPaths, type LinkedLoginsResult, type OidcProvider, type OidcStartBody, type SiweBody, type SiweLinkBody,
  type SiweNonceResult, type UnlinkLoginBody,
} from '../../api/contract/security.ts';

export const externalLoginApi = api.injectEndpoints({
  endpoints: (build) => ({
    oidcProviders: build.query<OidcProvider[], void>({
      query: () => ({ url: externalLoginPaths.oidcProviders, quiet: true }),
    }),
    /** A fresh nonce every time (a mutation: never cached); with a session it is a link nonce. */
    siweNonce: build.mutation<SiweNonceResult, { chainId: number }>({
      query: (params) => ({ url: externalLoginPaths.siweNonce, params, quiet: true }),
    }),
    siweLogin: build.mutation<TokenResult, SiweBody>({
      query: (body) => ({ url: externalLoginPaths.siweLogin, method: 'POST', body, quiet: true }),
    }),
    /** With the fresh proof (FreshProof) the server asks for. */
    siweLink: build.mutation<{ address: string }, SiweLinkBody>({
      query: (body) => ({ url: externalLoginPaths.siweLink, method: 'POST', body, quiet: true }),
      invalidatesTags: ['LinkedLogin'],
    }),
    oidcStart: build.mutation<{ authorizationUrl: string }, OidcStartBody>({
      query: (body) => ({ url: externalLoginPaths.oidcStart, method: 'POST', body, quiet: true }),
    }),
    linkedLogins: build.query<LinkedLoginsResult, void>({
      query: () => ({ url: externalLoginPaths.linkedLogins, quiet: true }),
      providesTags: ['LinkedLogin'],
    }),
    unlinkLogin: build.mutation<null, UnlinkLoginBody>({
      query: (body) => ({ url: externalLoginPaths.unlinkLogin, method: 'POST', body, quiet: true }),
      invalidatesTags: ['LinkedLogin'],
    }),
  }),
});

export const {
  useOidcProvidersQuery, useSiweNonceMutation, useSiweLoginMutation, useSiweLinkMutation, useOidcStartMutation,
  useLinkedLoginsQuery, useUnlinkLoginMutation,
} = externalLoginApi;
