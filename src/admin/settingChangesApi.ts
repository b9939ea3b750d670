// The back office's calls for changes to settings that decide what the house pays (issue 38:
// contract/settingChanges.ts settingChangePaths), injected into the one admin API slice: the list
// (pending, or the last 200 of every status), approving (by an operator other than the admin who
// asked) and rejecting with a reason. An approval applies the change, so it also refreshes the
// screen of the setting it changed; the screens that save a guarded setting invalidate this list in
// turn ('SettingChanges', declared in api.ts). Quiet: the screen shows failures in place.
import { settingChangePaths, type SettingChange } from '../api/contract/settingChanges.ts';
import { adminApi } from './api.ts';

const withId = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));

/** The tags of the screens whose settings a decision changes (declared by their own API modules too). */
const guardedScreenTags = ['Threshold', 'InvestProducts', 'WelfareTasks', 'VipRewards', 'TeamRates'] as const;

export const settingChangesAdminApi = adminApi.enhanceEndpoints({ addTagTypes: guardedScreenTags }).injectEndpoints({
  endpoints: (build) => ({
    settingChanges: build.query<SettingChange[], { all: boolean }>({
      query: ({ all }) => ({ url: settingChangePaths.list, params: all ? { all: true } : undefined, quiet: true }),
      providesTags: ['SettingChanges'],
    }),
    /** Answers the change as applied. The server refuses the requester (setting_change_requested_by_you). */
    approveSettingChange: build.mutation<SettingChange, string>({
      query: (id) => ({ url: withId(settingChangePaths.approve, id), method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['SettingChanges', 'Audit', ...guardedScreenTags],
    }),
    rejectSettingChange: build.mutation<SettingChange, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: withId(settingChangePaths.reject, id), method: 'POST', body: { reason }, quiet: true }),
      invalidatesTags: ['SettingChanges', 'Audit'],
    }),
  }),
});

export const { useSettingChangesQuery, useApproveSettingChangeMutation, useRejectSettingChangeMutation } = settingChangesAdminApi;

/** Whether a guarded setting's answer says its change waits for a second operator. */
export const waitsForSecondAdmin = (answer: unknown): boolean =>
  typeof answer === 'object' && answer !== null && 'pendingChange' in answer && !!(answer as { pendingChange?: unknown }).pendingChange;
