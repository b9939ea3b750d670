// Identity verification calls (issue 11; contract/identity.ts), injected into the one api. The
// state (isHaveAuth) and the levels feed the three verification pages and the prompt on /my;
// applying invalidates the state. Mutations are quiet: the forms show a refusal in place.
import { api } from '../../api/api.ts';
import type { PageOf } from '../../api/contract/wallet.ts';
import {
  kycPaths, type ApplyAdvancedBody, type ApplyBasicBody, type KycApplication, type KycLevel, type KycState,
} from '../../api/contract/identity.ts';

export const kycApi = api.injectEndpoints({
  endpoints: (build) => ({
    kycState: build.query<KycState, void>({
      query: () => ({ url: kycPaths.isHaveAuth }),
      providesTags: ['Kyc'],
    }),
    kycLevels: build.query<KycLevel[], void>({
      query: () => ({ url: kycPaths.levels }),
    }),
    myKycApplications: build.query<PageOf<KycApplication>, { pageNo: number; pageSize: number }>({
      query: (params) => ({ url: kycPaths.listMy, params }),
      providesTags: ['Kyc'],
    }),
    applyBasic: build.mutation<KycApplication, ApplyBasicBody>({
      query: (body) => ({ url: kycPaths.applyBasic, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Kyc'],
    }),
    applyAdvanced: build.mutation<KycApplication, ApplyAdvancedBody>({
      query: (body) => ({ url: kycPaths.applyAdvanced, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Kyc'],
    }),
  }),
});

export const {
  useKycStateQuery, useKycLevelsQuery, useMyKycApplicationsQuery, useApplyBasicMutation, useApplyAdvancedMutation,
} = kycApi;
