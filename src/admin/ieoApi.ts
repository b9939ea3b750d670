// The back office's IEO calls (issue 23: contract/ieo.ts ieoAdminPaths), injected into the one admin
// API slice: projects (list, create), close, reveal and list the token, and the public draw the
// screen recomputes. Writes are quiet: the screen shows a refusal in place.
import { ieoAdminPaths, ieoPaths, type AdminIeoProject, type CreateIeoBody, type IeoDraw } from '../api/contract/ieo.ts';
import type { PageOf } from '../api/contract/wallet.ts';
import { adminApi } from './api.ts';

export const ieoPageSize = 20;
const withId = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));

export const ieoAdminApi = adminApi.enhanceEndpoints({ addTagTypes: ['IeoProjects'] }).injectEndpoints({
  endpoints: (build) => ({
    adminIeoProjects: build.query<PageOf<AdminIeoProject>, { pageNo: number }>({
      query: ({ pageNo }) => ({ url: ieoAdminPaths.projects, params: { pageNo, pageSize: ieoPageSize }, quiet: true }),
      providesTags: ['IeoProjects'],
    }),
    createIeo: build.mutation<AdminIeoProject, CreateIeoBody>({
      query: (body) => ({ url: ieoAdminPaths.projects, method: 'POST', body, quiet: true }),
      invalidatesTags: ['IeoProjects', 'Audit'],
    }),
    ieoStep: build.mutation<AdminIeoProject, { id: string; step: 'close' | 'reveal' | 'list' }>({
      query: ({ id, step }) => ({ url: withId(ieoAdminPaths[step], id), method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['IeoProjects', 'Audit'],
    }),
    adminIeoDraw: build.query<IeoDraw, string>({
      query: (id) => ({ url: ieoPaths.draw, params: { id }, quiet: true }),
      providesTags: ['IeoProjects'],
    }),
  }),
});

export const { useAdminIeoProjectsQuery, useCreateIeoMutation, useIeoStepMutation, useAdminIeoDrawQuery } = ieoAdminApi;
