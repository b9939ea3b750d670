// The team invitation page's calls (issue 23), injected into the one api: the caller's team
// figures, the daily team income statements, the invitation short link (made on first ask) and
// binding an inviter for an account made without a code. Reads are quiet (the page shows its own
// error state); binding is quiet too: the form shows the refusal where it belongs, translated.
import { api } from '../../../api/api.ts';
import type { PageOf } from '../../../api/contract/wallet.ts';
import { teamPaths, type MyTeam, type ShortLink, type TeamIncomeDay } from '../../../api/contract/team.ts';

/** Days of statements the page shows: a month. */
export const statementDaysShown = 30;

export const teamApi = api.enhanceEndpoints({ addTagTypes: ['Team'] }).injectEndpoints({
  endpoints: (build) => ({
    myTeam: build.query<MyTeam, void>({
      query: () => ({ url: teamPaths.myTeam, quiet: true }),
      providesTags: ['Team'],
    }),
    teamIncome: build.query<PageOf<TeamIncomeDay>, void>({
      query: () => ({ url: teamPaths.income, params: { pageNo: 1, pageSize: statementDaysShown }, quiet: true }),
      providesTags: ['Team'],
    }),
    makeShortLink: build.mutation<ShortLink, void>({
      query: () => ({ url: teamPaths.myShortLink, quiet: true }),
      invalidatesTags: ['Team'],
    }),
    bindInviter: build.mutation<MyTeam, { inviteCode: string }>({
      query: (body) => ({ url: teamPaths.bindInviter, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Team'],
    }),
  }),
});

export const { useMyTeamQuery, useTeamIncomeQuery, useMakeShortLinkMutation, useBindInviterMutation } = teamApi;

/** The app's own address of a path (hash routes), as a friend opens it. */
export function appLink(path: string): string {
  return `${window.location.origin}${window.location.pathname}#${path}`;
}

/** The register form with the code filled in (features/auth/RegisterForm.tsx reads `inviteCode`). */
export const inviteLinkOf = (inviteCode: string) => appLink(`/login?mode=register&inviteCode=${encodeURIComponent(inviteCode)}`);

/** The short address a friend opens: the server counts the visit and redirects into the app. */
export const shortLinkOf = (code: string) => `${window.location.origin}/api/s/${code}`;
