// Notices, announcements, internal messages, the help centre, news and the status check on the
// wire (issue 21). Spec paths where spec §7 names them; the rest ours, under the same envelope.
// Ids are decimal strings, times milliseconds since the epoch. Every text field an operator
// writes as HTML (`bodyHtml`) was sanitized by the server with an allow-list before it was
// stored; the app renders it through its own element walker, never as raw HTML.
import { Type, type Static } from '@sinclair/typebox';
import { Page, PageQuery } from './wallet.ts';
import { RecordId } from './withdrawals.ts';
import { apiPrefix } from './paths.ts';

export const contentPaths = {
  /** Public notices for home (scroller): newest first, the caller's language, no paging. */
  homeNotices: '/sys/annountCement/vue3List',
  /** Announcements meant for the caller (signed in), with read state and pop-up flag. */
  myAnnouncements: '/sys/annountCement/listByUser',
  /** Ours: marks an announcement or notice read ({ id }), idempotent. */
  readAnnouncement: '/sys/annountCement/read',
  /** Notices, paged (public). */
  notices: '/content/appNotice/list',
  /**
   * Ours: one notice (public) or announcement (only for a caller it is meant for) with its body
   * (`?id=&lang=`), for the notice page and the pop-up: the lists carry no body.
   */
  noticeById: '/content/appNotice/queryById',
  /** Internal messages of the caller, paged, with the unread count. */
  myMessages: '/content/appNotice/myList',
  /** Ours: marks one message read ({ id }) or all ({ all: true }); answers the unread count. */
  readMessages: '/content/appNotice/read',
  /** Ours: unread counts for the bell and the badge on My: { messages, announcements }. */
  unread: '/content/appNotice/unread',
  /** Help centre: list (search with `q`, filter by `category`) and one article. */
  helpList: '/content/appHelpInfo/list',
  helpById: '/content/appHelpInfo/queryById',
  /** Ours: news and articles (xinwen, articleList, articleDetail). */
  articles: '/content/appArticle/list',
  articleById: '/content/appArticle/queryById',
  /** Ours: a content image (cover or inline), public, immutable. */
  image: '/public/content/image/:id',
  /** Ours: the 60-second status check (spec §7, §9). */
  status: '/public/status',
} as const;

export const contentAdminPaths = {
  /** Publishes a notice and pushes it to subscribers of the notices category. */
  notices: '/admin/content/notices',
  /** Every kind: list (?kind=&q=), create, read, update, withdraw. */
  items: '/admin/content/items',
  item: '/admin/content/items/:id',
  withdraw: '/admin/content/items/:id/withdraw',
  /** Who read an announcement (paged). */
  readers: '/admin/content/items/:id/readers',
  /** Image upload for content (multipart, field `file`). */
  images: '/admin/content/images',
  /** Maintenance mode: GET the current one, POST { maintenance, message?, until?, minAppVersion? }. */
  maintenance: '/admin/status/maintenance',
} as const;

/**
 * Whether a link in a content body may be kept: an absolute http(s) address with a host, or a
 * mailto. The server's sanitizer keeps only these; the back office's editor and preview apply the same rule.
 */
export function isSafeContentLink(href: string): boolean {
  const value = href.trim();
  if (/^mailto:[^\s<>"]+$/i.test(value)) return true;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const contentImagePattern = new RegExp(`^${apiPrefix.replace(/\//g, '\\/')}\\/public\\/content\\/image\\/[0-9a-f]{32}$`);
/** Whether an image address is one of our own content images (contentPaths.image), the only images a body keeps. */
export const isContentImage = (src: string) => contentImagePattern.test(src.trim());

export const contentKinds = ['notice', 'announcement', 'help', 'article'] as const;
export type ContentKind = (typeof contentKinds)[number];
export const ContentKind = Type.Union(contentKinds.map((kind) => Type.Literal(kind)));

/** Languages content may be written in (lib/locales.ts codes). */
export const ContentLang = Type.Union(['en-us', 'ko', 'jp', 'tai', 'mlxy', 'vl', 'xi', 'zh-cn', 'zh-tw', 'zh-hk'].map((l) => Type.Literal(l)));

export const Audience = Type.Union([
  Type.Object({ kind: Type.Literal('all') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('vip'), min: Type.Integer({ minimum: 0, maximum: 20 }) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('kyc'), min: Type.Integer({ minimum: 0, maximum: 2 }) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('users'), userIds: Type.Array(RecordId, { minItems: 1, maxItems: 10_000 }) }, { additionalProperties: false }),
]);
export type Audience = Static<typeof Audience>;

/** One item as the app gets it, in the language asked for (English when it has none). */
export const ContentItem = Type.Object({
  id: Type.String(),
  kind: ContentKind,
  title: Type.String(),
  summary: Type.String(),
  /** Sanitized HTML; absent in lists. */
  bodyHtml: Type.Optional(Type.String()),
  /** The language the text is in (may differ from the one asked for: the English fallback). */
  lang: Type.String(),
  category: Type.Optional(Type.String()),
  /** Path of the cover image (contentPaths.image), if any. */
  coverUrl: Type.Optional(Type.String()),
  popup: Type.Boolean(),
  publishAt: Type.Integer(),
  expireAt: Type.Optional(Type.Integer()),
  /** For a signed-in caller: when they read it. */
  readAt: Type.Optional(Type.Integer()),
});
export type ContentItem = Static<typeof ContentItem>;

export const ContentListQuery = Type.Object({
  ...PageQuery,
  lang: Type.Optional(ContentLang),
  q: Type.Optional(Type.String({ maxLength: 100 })),
  category: Type.Optional(Type.String({ maxLength: 32, pattern: '^[a-z0-9_-]{1,32}$' })),
});
export const ContentPage = Page(ContentItem);
export const ContentByIdQuery = Type.Object({ id: RecordId, lang: Type.Optional(ContentLang) });
export const ReadAnnouncementBody = Type.Object({ id: RecordId }, { additionalProperties: false });

/** Internal message kinds (the app words each in the user's language from `params`). */
export const messageKinds = [
  'deposit_credited', 'deposit_rejected', 'withdrawal_paid', 'withdrawal_rejected', 'kyc_approved', 'kyc_rejected',
  'position_take_profit', 'position_stop_loss', 'position_liquidated', 'second_contract_settled',
  'price_alert', 'chat_reply', 'security_alert', 'announcement',
  // Loans (issue 22): approved (params amount, asset, dueAt), rejected (reason), margin call (ltv,
  // price, symbol, marginCallLtv, liquidationLtv), liquidated (price, symbol, collateral, repaid, fee,
  // returned), overdue (dueAt, penaltyRate).
  'loan_approved', 'loan_rejected', 'loan_margin_call', 'loan_liquidated', 'loan_overdue',
  // Investment products (issue 22), each with id (the order's) and product (its English name):
  // matured (amount: the principal returned, absent for mining, which holds none; asset; income:
  // all the order earned, in incomeAsset), refunded (a bond's raise missed its target: amount,
  // asset), frozen (reason, the operator's words for the user), unfrozen.
  'product_matured', 'product_refunded', 'product_frozen', 'product_unfrozen',
] as const;
export type MessageKind = (typeof messageKinds)[number];

export const pushCategories = ['notices', 'trading', 'money', 'chat', 'security', 'price_alerts'] as const;
export type PushCategory = (typeof pushCategories)[number];
export const PushCategory = Type.Union(pushCategories.map((c) => Type.Literal(c)));

export const UserMessage = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  category: PushCategory,
  /** Values the text shows: amounts as decimal strings, symbols, reasons, ids. */
  params: Type.Record(Type.String(), Type.String()),
  /** The app route it opens ("/assets/records?type=deposit", "/trade/history"...). */
  route: Type.Optional(Type.String()),
  createdAt: Type.Integer(),
  readAt: Type.Optional(Type.Integer()),
});
export type UserMessage = Static<typeof UserMessage>;

export const MyMessagesQuery = Type.Object({ ...PageQuery, unreadOnly: Type.Optional(Type.Boolean()) });
export const MyMessagesPage = Type.Object({
  records: Type.Array(UserMessage), total: Type.Integer(), size: Type.Integer(), current: Type.Integer(), pages: Type.Integer(),
  unread: Type.Integer(),
});
export const ReadMessagesBody = Type.Union([
  Type.Object({ id: RecordId }, { additionalProperties: false }),
  Type.Object({ all: Type.Literal(true) }, { additionalProperties: false }),
]);
export const UnreadCounts = Type.Object({ messages: Type.Integer(), announcements: Type.Integer() });
export type UnreadCounts = Static<typeof UnreadCounts>;

export const Status = Type.Object({
  maintenance: Type.Boolean(),
  message: Type.Optional(Type.String()),
  /** When maintenance is expected to end (ms). */
  until: Type.Optional(Type.Integer()),
  minAppVersion: Type.Optional(Type.String()),
  /** Ours: server time (ms), so the check also corrects the clock. */
  serverTime: Type.Optional(Type.Integer()),
});
export type Status = Static<typeof Status>;

// ─── Operator bodies ───
export const AdminNoticeBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  /** HTML from the editor; sanitized with the allow-list before it is stored. */
  body: Type.String({ minLength: 1, maxLength: 100_000 }),
  lang: Type.Optional(ContentLang),
  publishAt: Type.Optional(Type.Integer({ minimum: 0 })),
  expireAt: Type.Optional(Type.Integer({ minimum: 0 })),
}, { additionalProperties: false });
export type AdminNoticeBody = Static<typeof AdminNoticeBody>;

export const AdminTranslation = Type.Object({
  lang: ContentLang,
  title: Type.String({ minLength: 1, maxLength: 200 }),
  summary: Type.Optional(Type.String({ maxLength: 500 })),
  body: Type.String({ minLength: 1, maxLength: 100_000 }),
}, { additionalProperties: false });

export const AdminItemBody = Type.Object({
  kind: ContentKind,
  /** At least English; other languages fall back to it. */
  translations: Type.Array(AdminTranslation, { minItems: 1, maxItems: 10 }),
  audience: Type.Optional(Audience),
  popup: Type.Optional(Type.Boolean()),
  category: Type.Optional(Type.String({ maxLength: 32, pattern: '^[a-z0-9_-]{1,32}$' })),
  coverImageId: Type.Optional(Type.String({ minLength: 32, maxLength: 32, pattern: '^[0-9a-f]{32}$' })),
  publishAt: Type.Optional(Type.Integer({ minimum: 0 })),
  expireAt: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Whether to push it to subscribers (notices and announcements) when it publishes. */
  push: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });
export type AdminItemBody = Static<typeof AdminItemBody>;

export const AdminMaintenanceBody = Type.Object({
  maintenance: Type.Boolean(),
  message: Type.Optional(Type.String({ maxLength: 500 })),
  until: Type.Optional(Type.Integer({ minimum: 0 })),
  minAppVersion: Type.Optional(Type.String({ maxLength: 20, pattern: '^[0-9]+(\\.[0-9]+){0,2}$' })),
  /** Why (audited). */
  reason: Type.String({ minLength: 1, maxLength: 500 }),
}, { additionalProperties: false });

// ─── Operator views (ours) ───
/** The back office's list query: every kind or one, `q` over the English title. */
export const AdminContentListQuery = Type.Object({
  ...PageQuery,
  kind: Type.Optional(ContentKind),
  q: Type.Optional(Type.String({ maxLength: 100 })),
}, { additionalProperties: false });
export const ContentItemParams = Type.Object({ id: RecordId });

/** Where an item stands now: not yet published, visible, past its expiry, or withdrawn. */
export const ContentStatus = Type.Union(['scheduled', 'live', 'expired', 'withdrawn'].map((s) => Type.Literal(s)));
export type ContentStatus = 'scheduled' | 'live' | 'expired' | 'withdrawn';

export const AdminContentTranslation = Type.Object({
  lang: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  /** Sanitized HTML as stored; absent in lists. */
  bodyHtml: Type.Optional(Type.String()),
});
export const AdminContentItem = Type.Object({
  id: Type.String(),
  kind: ContentKind,
  /** The English title (every item has English). */
  title: Type.String(),
  translations: Type.Array(AdminContentTranslation),
  audience: Audience,
  popup: Type.Boolean(),
  category: Type.Optional(Type.String()),
  coverImageId: Type.Optional(Type.String()),
  coverUrl: Type.Optional(Type.String()),
  publishAt: Type.Integer(),
  expireAt: Type.Optional(Type.Integer()),
  withdrawnAt: Type.Optional(Type.Integer()),
  status: ContentStatus,
  /** A scheduled notice or announcement to be pushed when it publishes. */
  push: Type.Optional(Type.Boolean()),
  /** How many users have read it. */
  readers: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.Integer(),
  updatedAt: Type.Integer(),
});
export type AdminContentItem = Static<typeof AdminContentItem>;
export const AdminContentPage = Page(AdminContentItem);

/** An update replaces the item's fields and translations (the kind stays); `reason` is audited. */
export const AdminItemUpdateBody = Type.Object({
  ...AdminItemBody.properties,
  reason: Type.Optional(Type.String({ maxLength: 500 })),
}, { additionalProperties: false });
export type AdminItemUpdateBody = Static<typeof AdminItemUpdateBody>;
export const AdminWithdrawBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false });

export const ContentReader = Type.Object({
  userId: Type.String(),
  /** The user's e-mail, phone (+code) or user name. */
  account: Type.String(),
  readAt: Type.Integer(),
});
export const ContentReadersPage = Page(ContentReader);
export const ContentReadersQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

/** An uploaded content image: put `url` in an <img src> of a body, or `id` as a cover. */
export const ContentImageResult = Type.Object({
  id: Type.String(),
  url: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
  width: Type.Optional(Type.Integer()),
  height: Type.Optional(Type.Integer()),
});
export type ContentImageResult = Static<typeof ContentImageResult>;

/** The maintenance setting as operators see it (Status without the server time, plus who set it when). */
export const AdminMaintenance = Type.Object({
  maintenance: Type.Boolean(),
  message: Type.Optional(Type.String()),
  until: Type.Optional(Type.Integer()),
  minAppVersion: Type.Optional(Type.String()),
  updatedAt: Type.Optional(Type.Integer()),
});
export type AdminMaintenance = Static<typeof AdminMaintenance>;
