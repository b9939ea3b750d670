// The back office's content calls (contract/content.ts contentAdminPaths), injected into the one
// admin API slice: notices, announcements, help articles and news (list, read, create, update,
// withdraw), who read an announcement, content images (multipart upload, served publicly by id),
// the quick notice and maintenance mode. Writes and the screens' lists are `quiet`: the screen
// shows a refusal or a failed load in place. The shapes the server answers with that the contract
// does not name as schemas are written here, read leniently (`toAdminItem`), in one place.
import { apiPrefix } from '../api/contract/paths.ts';
import {
  contentAdminPaths, contentPaths, type AdminItemBody, type AdminNoticeBody, type Audience, type ContentKind, type Status,
} from '../api/contract/content.ts';
import type { PageOf } from '../api/contract/wallet.ts';
import { adminApi } from './api.ts';

/** The languages content may be written in, English first (the fallback), as contract ContentLang. */
export const contentLangs = ['en-us', 'ko', 'jp', 'tai', 'mlxy', 'vl', 'xi', 'zh-cn', 'zh-tw', 'zh-hk'] as const;
export type ContentLangCode = (typeof contentLangs)[number];
export const fallbackLang: ContentLangCode = 'en-us';

/** One language of an item as the operator wrote it (the body as the server stored it: sanitized). */
export interface AdminTranslation {
  lang: ContentLangCode;
  title: string;
  summary: string;
  bodyHtml: string;
}

/** Where an item is in its life, as the list shows it. */
export type ContentState = 'scheduled' | 'live' | 'expired' | 'withdrawn';

/**
 * An item as the back office reads it (contract AdminContentItem): every language, the audience,
 * the schedule and where it stands. A list leaves the bodies out (`bodiesLoaded` false): the
 * editor reads the item itself.
 */
export interface AdminContentItem {
  id: string;
  kind: ContentKind;
  translations: AdminTranslation[];
  bodiesLoaded: boolean;
  audience: Audience;
  popup: boolean;
  /** Not stored by the server: whether to push when this save publishes it. */
  push: boolean;
  /** The server's word for where it stands, else worked out here from the times. */
  status: ContentState;
  /** How many users have read it. */
  readers: number;
  category?: string;
  coverImageId?: string;
  publishAt: number;
  expireAt?: number;
  withdrawnAt?: number;
  withdrawReason?: string;
  createdAt?: number;
  updatedAt?: number;
}

/** Who read an announcement, and when. */
export interface ContentReader {
  userId: string;
  account: string;
  readAt: number;
}

/** Maintenance mode as it is now (the status check's answer) and who set it last. */
export type MaintenanceState = Status & { reason?: string; updatedAt?: number; updatedBy?: string };

export interface ContentListArgs {
  kind: ContentKind;
  pageNo: number;
  q?: string;
}

export interface UploadedImage {
  id: string;
  /** Where the image is served, publicly (contentPaths.image under /api). */
  url: string;
}

const pageSize = 20;
const withId = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));

/** Where a content image is served (the only image address the server's allow-list keeps). */
export const contentImageUrl = (id: string) => `${apiPrefix}${withId(contentPaths.image, id)}`;

/** Where an item is in its life at `now`. */
export function contentState(item: Pick<AdminContentItem, 'publishAt' | 'expireAt' | 'withdrawnAt'>, now: number): ContentState {
  if (item.withdrawnAt !== undefined) return 'withdrawn';
  if (item.publishAt > now) return 'scheduled';
  if (item.expireAt !== undefined && item.expireAt <= now) return 'expired';
  return 'live';
}

type Loose = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const time = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const isLang = (value: unknown): value is ContentLangCode => (contentLangs as readonly unknown[]).includes(value);

function toTranslation(raw: Loose): AdminTranslation | undefined {
  if (!isLang(raw.lang)) return undefined;
  return { lang: raw.lang, title: text(raw.title), summary: text(raw.summary), bodyHtml: text(raw.bodyHtml ?? raw.body) };
}

/** The server's item, whatever optional fields it leaves out (null or absent read the same). */
const states: readonly unknown[] = ['scheduled', 'live', 'expired', 'withdrawn'] satisfies ContentState[];

export function toAdminItem(raw: Loose): AdminContentItem {
  const rawTranslations = Array.isArray(raw.translations) ? raw.translations as Loose[] : [];
  const translations = rawTranslations
    .map(toTranslation).filter((value): value is AdminTranslation => !!value)
    .sort((a, b) => contentLangs.indexOf(a.lang) - contentLangs.indexOf(b.lang));
  const audience = (raw.audience && typeof raw.audience === 'object' ? raw.audience : { kind: 'all' }) as Audience;
  const times = { publishAt: time(raw.publishAt) ?? 0, expireAt: time(raw.expireAt), withdrawnAt: time(raw.withdrawnAt) };
  return {
    id: String(raw.id),
    kind: raw.kind as ContentKind,
    translations,
    bodiesLoaded: rawTranslations.length > 0 && rawTranslations.every((translation) => typeof (translation.bodyHtml ?? translation.body) === 'string'),
    audience,
    popup: raw.popup === true,
    push: raw.push === true,
    status: states.includes(raw.status) ? raw.status as ContentState : contentState(times, Date.now()),
    readers: typeof raw.readers === 'number' ? raw.readers : 0,
    category: text(raw.category) || undefined,
    coverImageId: text(raw.coverImageId) || undefined,
    ...times,
    withdrawReason: text(raw.withdrawReason ?? raw.withdrawnReason) || undefined,
    createdAt: time(raw.createdAt),
    updatedAt: time(raw.updatedAt),
  };
}

const toItemPage = (page: PageOf<Loose>): PageOf<AdminContentItem> => ({ ...page, records: page.records.map(toAdminItem) });

export const contentAdminApi = adminApi.enhanceEndpoints({ addTagTypes: ['Content', 'ContentReaders', 'Maintenance'] }).injectEndpoints({
  endpoints: (build) => ({
    contentItems: build.query<PageOf<AdminContentItem>, ContentListArgs>({
      query: ({ kind, pageNo, q }) => ({ url: contentAdminPaths.items, params: { kind, pageNo, pageSize, q: q || undefined }, quiet: true }),
      transformResponse: toItemPage,
      providesTags: ['Content'],
    }),
    contentItem: build.query<AdminContentItem, string>({
      query: (id) => ({ url: withId(contentAdminPaths.item, id), quiet: true }),
      transformResponse: toAdminItem,
      providesTags: ['Content'],
      // The editor opens on what the server holds now, never on an old copy of the bodies.
      keepUnusedDataFor: 0,
    }),
    createContentItem: build.mutation<AdminContentItem, AdminItemBody>({
      query: (body) => ({ url: contentAdminPaths.items, method: 'POST', body, quiet: true }),
      transformResponse: toAdminItem,
      invalidatesTags: ['Content', 'Audit'],
    }),
    updateContentItem: build.mutation<AdminContentItem, { id: string; body: AdminItemBody & { reason?: string } }>({
      query: ({ id, body }) => ({ url: withId(contentAdminPaths.item, id), method: 'POST', body, quiet: true }),
      transformResponse: toAdminItem,
      invalidatesTags: ['Content', 'Audit'],
    }),
    withdrawContentItem: build.mutation<unknown, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: withId(contentAdminPaths.withdraw, id), method: 'POST', body: { reason }, quiet: true }),
      invalidatesTags: ['Content', 'Audit'],
    }),
    contentReaders: build.query<PageOf<ContentReader>, { id: string; pageNo: number }>({
      query: ({ id, pageNo }) => ({ url: withId(contentAdminPaths.readers, id), params: { pageNo, pageSize }, quiet: true }),
      providesTags: ['ContentReaders'],
    }),
    /** Publishes a notice at once (one language) and pushes it to subscribers of the notices category. */
    publishNotice: build.mutation<AdminContentItem, AdminNoticeBody>({
      query: (body) => ({ url: contentAdminPaths.notices, method: 'POST', body, quiet: true }),
      transformResponse: toAdminItem,
      invalidatesTags: ['Content', 'Audit'],
    }),
    uploadContentImage: build.mutation<UploadedImage, File>({
      query: (file) => {
        const body = new FormData();
        body.append('file', file, file.name);
        return { url: contentAdminPaths.images, method: 'POST', body, quiet: true };
      },
      // The address is ours to make from the id: it is the only form the sanitizer keeps.
      transformResponse: (raw: Loose) => ({ id: text(raw.id), url: contentImageUrl(text(raw.id)) }),
    }),
    maintenance: build.query<MaintenanceState, void>({
      query: () => ({ url: contentAdminPaths.maintenance, quiet: true }),
      providesTags: ['Maintenance'],
    }),
    setMaintenance: build.mutation<MaintenanceState, {
      maintenance: boolean; message?: string; until?: number; minAppVersion?: string; reason: string;
    }>({
      query: (body) => ({ url: contentAdminPaths.maintenance, method: 'POST', body, quiet: true }),
      invalidatesTags: ['Maintenance', 'Audit'],
    }),
  }),
});

export const {
  useContentItemsQuery, useContentItemQuery, useCreateContentItemMutation, useUpdateContentItemMutation, useWithdrawContentItemMutation,
  useContentReadersQuery, usePublishNoticeMutation, useUploadContentImageMutation, useMaintenanceQuery, useSetMaintenanceMutation,
} = contentAdminApi;
