// The reads and read marks of notices, announcements, internal messages, the help centre and news
// (issue 21, contract/content.ts), injected into the one createApi. Every read asks in the app's
// language (the server falls back to English) and is quiet: the pages show a failure in place,
// and a list seen before shows what it had with its age (the worker's copy, `cachedAtMs`).
import { api } from '../../api/api.ts';
import type { ApiError, ResponseMeta } from '../../api/baseQuery.ts';
import type { PageOf } from '../../api/contract/wallet.ts';
import { contentPaths, type ContentItem, type UnreadCounts, type UserMessage } from '../../api/contract/content.ts';
import { i18n } from '../../lib/i18n.ts';
import { isLocaleCode } from '../../lib/locales.ts';

export const contentPageSize = 20;
/** The unread counts are asked again this often while a page that shows them is open. */
export const unreadPollMs = 60_000;

/** What a read gives the page: the data and, when it came from the worker's cache offline, when that copy was made. */
export interface Fetched<T> { value: T; cachedAtMs?: number }
export type MessagesPage = PageOf<UserMessage> & { unread: number };
export interface ContentListArgs { q?: string; category?: string }

const lang = () => (isLocaleCode(i18n.locale) ? i18n.locale : undefined);
const fetched = <T>(value: T, meta: ResponseMeta | undefined): Fetched<T> =>
  (meta?.cachedAtMs ? { value, cachedAtMs: meta.cachedAtMs } : { value });
/** A list answered as an array or as a page (the home notices and the caller's announcements). */
const itemsOf = (answer: ContentItem[] | PageOf<ContentItem> | null | undefined): ContentItem[] =>
  (Array.isArray(answer) ? answer : answer?.records ?? []);

/** The next page to ask for, or undefined when the last one has been read. */
export const nextPageOf = (lastPage: PageOf<unknown>, lastPageNo: number) =>
  lastPage.records.length > 0 && lastPageNo < lastPage.pages ? lastPageNo + 1 : undefined;
const infinite = { initialPageParam: 1, getNextPageParam: (last: PageOf<unknown>, _all: unknown, lastNo: number) => nextPageOf(last, lastNo) };

export const contentApi = api.injectEndpoints({
  endpoints: (build) => ({
    homeNotices: build.query<Fetched<ContentItem[]>, void>({
      query: () => ({ url: contentPaths.homeNotices, params: { lang: lang() }, quiet: true }),
      transformResponse: (answer: ContentItem[] | PageOf<ContentItem>, meta: ResponseMeta | undefined) => fetched(itemsOf(answer), meta),
      providesTags: ['Content'],
    }),
    myAnnouncements: build.query<Fetched<ContentItem[]>, void>({
      query: () => ({ url: contentPaths.myAnnouncements, params: { lang: lang() }, quiet: true }),
      transformResponse: (answer: ContentItem[] | PageOf<ContentItem>, meta: ResponseMeta | undefined) => fetched(itemsOf(answer), meta),
      providesTags: ['Announcement'],
    }),
    readAnnouncement: build.mutation<unknown, { id: string }>({
      query: ({ id }) => ({ url: contentPaths.readAnnouncement, method: 'POST', body: { id }, quiet: true }),
      invalidatesTags: ['Announcement', 'Unread'],
    }),
    notices: build.infiniteQuery<Fetched<PageOf<ContentItem>>, void, number>({
      infiniteQueryOptions: { ...infinite, getNextPageParam: (last, _all, lastNo) => nextPageOf(last.value, lastNo) },
      query: ({ pageParam }) => ({ url: contentPaths.notices, params: { pageNo: pageParam, pageSize: contentPageSize, lang: lang() }, quiet: true }),
      transformResponse: (answer: PageOf<ContentItem>, meta: ResponseMeta | undefined) => fetched(answer, meta),
      providesTags: ['Content'],
    }),
    noticeById: build.query<Fetched<ContentItem>, string>({
      query: (id) => ({ url: contentPaths.noticeById, params: { id, lang: lang() }, quiet: true }),
      transformResponse: (answer: ContentItem, meta: ResponseMeta | undefined) => fetched(answer, meta),
      providesTags: ['Content'],
    }),
    myMessages: build.infiniteQuery<Fetched<MessagesPage>, void, number>({
      infiniteQueryOptions: { ...infinite, getNextPageParam: (last, _all, lastNo) => nextPageOf(last.value, lastNo) },
      query: ({ pageParam }) => ({ url: contentPaths.myMessages, params: { pageNo: pageParam, pageSize: contentPageSize }, quiet: true }),
      transformResponse: (answer: MessagesPage, meta: ResponseMeta | undefined) => fetched(answer, meta),
      providesTags: ['Message'],
    }),
    readMessages: build.mutation<unknown, { id: string } | { all: true }>({
      query: (body) => ({ url: contentPaths.readMessages, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Message', 'Unread'],
    }),
    unread: build.query<UnreadCounts, void>({
      query: () => ({ url: contentPaths.unread, quiet: true }),
      providesTags: ['Unread'],
    }),
    helpList: build.infiniteQuery<Fetched<PageOf<ContentItem>>, ContentListArgs, number>({
      infiniteQueryOptions: { ...infinite, getNextPageParam: (last, _all, lastNo) => nextPageOf(last.value, lastNo) },
      query: ({ queryArg, pageParam }) => ({
        url: contentPaths.helpList, quiet: true,
        params: { pageNo: pageParam, pageSize: contentPageSize, lang: lang(), q: queryArg.q || undefined, category: queryArg.category || undefined },
      }),
      transformResponse: (answer: PageOf<ContentItem>, meta: ResponseMeta | undefined) => fetched(answer, meta),
      providesTags: ['Content'],
    }),
    helpById: build.query<Fetched<ContentItem>, string>({
      query: (id) => ({ url: contentPaths.helpById, params: { id, lang: lang() }, quiet: true }),
      transformResponse: (answer: ContentItem, meta: ResponseMeta | undefined) => fetched(answer, meta),
      providesTags: ['Content'],
    }),
    articles: build.infiniteQuery<Fetched<PageOf<ContentItem>>, ContentListArgs, number>({
      infiniteQueryOptions: { ...infinite, getNextPageParam: (last, _all, lastNo) => nextPageOf(last.value, lastNo) },
      query: ({ queryArg, pageParam }) => ({
        url: contentPaths.articles, quiet: true,
        params: { pageNo: pageParam, pageSize: contentPageSize, lang: lang(), category: queryArg.category || undefined },
      }),
      transformResponse: (answer: PageOf<ContentItem>, meta: ResponseMeta | undefined) => fetched(answer, meta),
      providesTags: ['Content'],
    }),
    articleById: build.query<Fetched<ContentItem>, string>({
      query: (id) => ({ url: contentPaths.articleById, params: { id, lang: lang() }, quiet: true }),
      transformResponse: (answer: ContentItem, meta: ResponseMeta | undefined) => fetched(answer, meta),
      providesTags: ['Content'],
    }),
  }),
});

export const {
  useHomeNoticesQuery, useMyAnnouncementsQuery, useReadAnnouncementMutation, useNoticesInfiniteQuery, useNoticeByIdQuery,
  useMyMessagesInfiniteQuery, useReadMessagesMutation, useUnreadQuery, useHelpListInfiniteQuery, useHelpByIdQuery,
  useArticlesInfiniteQuery, useArticleByIdQuery,
} = contentApi;

export type { ApiError };
