// Endpoints of loans (issue 22), injected into the one api: the offers, the caller's limit, the
// agreement to sign, the applications, the user's loans (an infinite list, 10 a page), repayment
// and more collateral. Loans move money, so they are tagged with the balances: a repayment, an
// application or a deposit refreshes both. Every mutation is quiet: its page shows the refusal in place.
import { api } from '../../api/api.ts';
import type { PageOf } from '../../api/contract/wallet.ts';
import {
  loanPaths, type Agreement, type CreditApplyBody, type Loan, type LoanInfo, type LoanSetting, type LoanStatus, type PledgeApplyBody,
} from '../../api/contract/loans.ts';

export const loansPageSize = 10;

export interface AgreementArgs { settingId: string; amount: string; days: number; collateral?: string }

export const loansApi = api.injectEndpoints({
  endpoints: (build) => ({
    loanSettings: build.query<LoanSetting[], void>({
      query: () => ({ url: loanPaths.settings, quiet: true }),
      providesTags: ['Balance'],
    }),
    myLoanInfo: build.query<LoanInfo, void>({
      query: () => ({ url: loanPaths.myInfo, quiet: true }),
      providesTags: ['Balance'],
    }),
    loanAgreement: build.query<Agreement, AgreementArgs>({
      query: (params) => ({ url: loanPaths.agreement, params: { ...params }, quiet: true }),
    }),
    /** The argument: a status to show only those, or {} for all. */
    myLoanPages: build.infiniteQuery<PageOf<Loan>, { status?: LoanStatus }, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, _all, lastPageNo) => (lastPage.records.length > 0 && lastPageNo < lastPage.pages ? lastPageNo + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: loanPaths.myLoans, params: { ...queryArg, pageNo: pageParam, pageSize: loansPageSize }, quiet: true,
      }),
      providesTags: ['Balance'],
    }),
    creditApply: build.mutation<Loan, CreditApplyBody>({
      query: (body) => ({ url: loanPaths.creditApply, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Balance'],
    }),
    pledgeApply: build.mutation<Loan, PledgeApplyBody>({
      query: (body) => ({ url: loanPaths.pledgeApply, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Balance'],
    }),
    repayLoan: build.mutation<Loan, { id: string; amount?: string }>({
      query: (body) => ({ url: loanPaths.repay, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Balance'],
    }),
    addCollateral: build.mutation<Loan, { id: string; amount: string }>({
      query: (body) => ({ url: loanPaths.addCollateral, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Balance'],
    }),
  }),
});

export const {
  useLoanSettingsQuery, useMyLoanInfoQuery, useLoanAgreementQuery, useMyLoanPagesInfiniteQuery, useCreditApplyMutation,
  usePledgeApplyMutation, useRepayLoanMutation, useAddCollateralMutation,
} = loansApi;
