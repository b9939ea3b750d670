// Notices, announcements, help articles and news (issue 21). Operators write an item per language
// (English required: every other language falls back to it); the body is cleaned with the
// allow-list (sanitize.ts) before it is stored, with its plain text kept for search. An item is
// visible while publish_at ≤ now < expire_at (no expiry when null) and not withdrawn.
// Announcements go to an audience: everyone, a VIP level or more, a KYC level or more, or a list
// of users. The VIP level is the user's level now as products and loans read it (levels.ts:
// user_levels, computed on the spot when the user has no row yet); issue 38 #12 found every user
// still counted as level 0 here. The KYC level is the highest approved level of the user's
// applications (0 without one). Notices, help and news are
// public; read marks are per user. A notice or announcement published later with a push asked
// for carries `push: true` in its stored audience until the scheduler (pushScheduled) sends it
// when it becomes visible; the audience matching reads only kind, min and userIds.
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Static } from '@sinclair/typebox';
import {
  contentKinds, type AdminContentItem, type AdminItemBody, type AdminItemUpdateBody, type AdminNoticeBody, type Audience,
  type ContentItem, type ContentKind, type ContentStatus, type UnreadCounts, type UserMessage,
  type MyMessagesQuery,
} from '../../../../src/api/contract/content.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import {
  contentImages, contentItems, contentReads, contentTranslations, kycApplications, systemSettings, userLevels, userMessages, users,
} from '../../../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../../../lib/errors.ts';
import { userVipLevel } from '../../core/levels/levels.ts';
import { contentImagePath, plainText, sanitizeContentHtml, summaryOf } from './sanitize.ts';

/** The languages content may be written in (the app's locale codes); English is the fallback. */
export const contentLanguages = ['en-us', 'ko', 'jp', 'tai', 'mlxy', 'vl', 'xi', 'zh-cn', 'zh-tw', 'zh-hk'] as const;
export const englishLang = 'en-us';

/** The language as stored, or a clear 400 naming the ones there are. */
export function checkLanguage(lang: string | undefined): string {
  if (lang === undefined) return englishLang;
  if ((contentLanguages as readonly string[]).includes(lang)) return lang;
  throw new AppError(400, 'invalid_request',
    `Unknown language "${lang.slice(0, 16)}": content may be written in ${contentLanguages.join(', ')}.`, { field: 'lang' });
}

const itemNotFound = () => notFound('not_found', 'This item was not found.');
const messageNotFound = () => notFound('not_found', 'This message was not found.');

// ─── Visibility and audience ───

/** Visible now: published, not expired, not withdrawn. */
const visibleAt = (now: Date): SQL => sql`${contentItems.publishAt} <= ${now} and (${contentItems.expireAt} is null or ${contentItems.expireAt} > ${now}) and ${contentItems.withdrawnAt} is null`;

/** A signed-in caller as audiences see them: who, and their VIP level now. */
interface Viewer { userId: bigint; vipLevel: number }

/** The caller's VIP level read once per call (undefined: anonymous). */
async function viewerOf(db: Executor, userId: bigint | undefined): Promise<Viewer | undefined> {
  return userId === undefined ? undefined : { userId, vipLevel: await userVipLevel(db, userId) };
}

/**
 * Whether the item's audience takes in the viewer (undefined: an anonymous caller, who gets only
 * items for everyone).
 */
function audienceIncludes(viewer: Viewer | undefined): SQL {
  if (viewer === undefined) return sql`${contentItems.audience}->>'kind' = 'all'`;
  const { userId, vipLevel } = viewer;
  const kycLevel = sql`coalesce((select max(${kycApplications.level}) from ${kycApplications} where ${kycApplications.userId} = ${userId} and ${kycApplications.status} = 'approved'), 0)`;
  return sql`(${contentItems.audience}->>'kind' = 'all'
    or (${contentItems.audience}->>'kind' = 'vip' and (${contentItems.audience}->>'min')::int <= ${vipLevel})
    or (${contentItems.audience}->>'kind' = 'kyc' and (${contentItems.audience}->>'min')::int <= ${kycLevel})
    or (${contentItems.audience}->>'kind' = 'users' and ${contentItems.audience}->'userIds' @> jsonb_build_array(${String(userId)}::text)))`;
}

/** ILIKE pattern of user text: its own %, _ and \ match themselves. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const asked = alias(contentTranslations, 'asked');
const english = alias(contentTranslations, 'english');

interface ListOptions {
  kind: ContentKind;
  lang?: string;
  userId?: bigint;
  q?: string;
  category?: string;
  pageNo?: number;
  pageSize?: number;
  /** Only pop-up items the user has not read. */
  unreadPopupsOnly?: boolean;
}

/** One kind's visible items for a caller, newest first, in `lang` or English, paged. */
export async function listContent(db: Executor, now: Date, options: ListOptions): Promise<PageOf<ContentItem>> {
  const lang = checkLanguage(options.lang);
  const pageNo = options.pageNo ?? 1;
  const pageSize = options.pageSize ?? 20;
  const conditions: SQL[] = [eq(contentItems.kind, options.kind), visibleAt(now), audienceIncludes(await viewerOf(db, options.userId))];
  if (options.category) conditions.push(eq(contentItems.category, options.category));
  if (options.q && options.q.trim() !== '') {
    const pattern = likePattern(options.q.trim());
    conditions.push(sql`(coalesce(${asked.title}, ${english.title}) ilike ${pattern} or coalesce(${asked.bodyText}, ${english.bodyText}) ilike ${pattern})`);
  }
  const readAt = options.userId === undefined ? sql<Date | null>`null`
    : sql<Date | null>`(select ${contentReads.readAt} from ${contentReads} where ${contentReads.itemId} = ${contentItems.id} and ${contentReads.userId} = ${options.userId})`;
  if (options.unreadPopupsOnly) {
    conditions.push(eq(contentItems.popup, true));
    if (options.userId !== undefined) conditions.push(sql`${readAt} is null`);
  }
  const where = and(...conditions);
  const base = db.select({
    item: contentItems,
    lang: sql<string>`coalesce(${asked.lang}, ${english.lang})`,
    title: sql<string>`coalesce(${asked.title}, ${english.title})`,
    summary: sql<string>`coalesce(${asked.summary}, ${english.summary})`,
    readAt,
  }).from(contentItems)
    .innerJoin(english, and(eq(english.itemId, contentItems.id), eq(english.lang, englishLang)))
    .leftJoin(asked, and(eq(asked.itemId, contentItems.id), eq(asked.lang, lang)));
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(contentItems)
    .innerJoin(english, and(eq(english.itemId, contentItems.id), eq(english.lang, englishLang)))
    .leftJoin(asked, and(eq(asked.itemId, contentItems.id), eq(asked.lang, lang)))
    .where(where);
  const rows = await base.where(where).orderBy(desc(contentItems.publishAt), desc(contentItems.id))
    .limit(pageSize).offset((pageNo - 1) * pageSize);
  const records = rows.map((row) => toContentItem(row.item, row, undefined, row.readAt));
  return { records, total: Number(total), size: pageSize, current: pageNo, pages: Math.ceil(Number(total) / pageSize) };
}

type ItemRow = typeof contentItems.$inferSelect;

function toContentItem(item: ItemRow, text: { lang: string; title: string; summary: string }, bodyHtml: string | undefined,
  readAt: Date | string | null): ContentItem {
  return {
    id: String(item.id),
    kind: item.kind as ContentKind,
    title: text.title,
    summary: text.summary,
    ...(bodyHtml !== undefined ? { bodyHtml } : {}),
    lang: text.lang,
    ...(item.category ? { category: item.category } : {}),
    ...(item.coverImageId ? { coverUrl: contentImagePath(item.coverImageId) } : {}),
    popup: item.popup,
    publishAt: item.publishAt.getTime(),
    ...(item.expireAt ? { expireAt: item.expireAt.getTime() } : {}),
    ...(readAt ? { readAt: new Date(readAt).getTime() } : {}),
  };
}

/** One visible item of `kinds` for a caller, with its body, in `lang` or English. */
export async function contentById(db: Executor, now: Date, id: bigint, kinds: readonly ContentKind[],
  options: { lang?: string; userId?: bigint }): Promise<ContentItem> {
  const lang = checkLanguage(options.lang);
  const [row] = await db.select({ item: contentItems }).from(contentItems)
    .where(and(eq(contentItems.id, id), inArray(contentItems.kind, [...kinds]), visibleAt(now), audienceIncludes(await viewerOf(db, options.userId))))
    .limit(1);
  if (!row) throw itemNotFound();
  const texts = await db.select().from(contentTranslations)
    .where(and(eq(contentTranslations.itemId, id), inArray(contentTranslations.lang, [...new Set([lang, englishLang])])));
  const text = texts.find((t) => t.lang === lang) ?? texts.find((t) => t.lang === englishLang);
  if (!text) throw itemNotFound();
  let readAt: Date | null = null;
  if (options.userId !== undefined) {
    const [read] = await db.select({ readAt: contentReads.readAt }).from(contentReads)
      .where(and(eq(contentReads.itemId, id), eq(contentReads.userId, options.userId))).limit(1);
    readAt = read?.readAt ?? null;
  }
  return toContentItem(row.item, text, text.bodyHtml, readAt);
}

// ─── Read marks and unread counts ───

/** Marks a notice or announcement the user can see read (idempotent: the first time stays). */
export async function markContentRead(db: Db, now: Date, userId: bigint, id: bigint): Promise<UnreadCounts> {
  const [row] = await db.select({ id: contentItems.id }).from(contentItems)
    .where(and(eq(contentItems.id, id), inArray(contentItems.kind, ['notice', 'announcement']), visibleAt(now), audienceIncludes(await viewerOf(db, userId))))
    .limit(1);
  if (!row) throw itemNotFound();
  await db.insert(contentReads).values({ itemId: id, userId, readAt: now }).onConflictDoNothing();
  return unreadCounts(db, now, userId);
}

/** Unread internal messages and unread visible announcements of the user. */
export async function unreadCounts(db: Executor, now: Date, userId: bigint): Promise<UnreadCounts> {
  const [messages] = await db.select({ n: sql<number>`count(*)::int` }).from(userMessages)
    .where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt)));
  const [announcements] = await db.select({ n: sql<number>`count(*)::int` }).from(contentItems)
    .where(and(eq(contentItems.kind, 'announcement'), visibleAt(now), audienceIncludes(await viewerOf(db, userId)),
      sql`not exists (select 1 from ${contentReads} where ${contentReads.itemId} = ${contentItems.id} and ${contentReads.userId} = ${userId})`));
  return { messages: Number(messages?.n ?? 0), announcements: Number(announcements?.n ?? 0) };
}

// ─── Internal messages ───

type MessageRow = typeof userMessages.$inferSelect;
const toUserMessage = (row: MessageRow): UserMessage => ({
  id: String(row.id),
  kind: row.kind,
  category: row.category as UserMessage['category'],
  params: row.params as Record<string, string>,
  ...(row.route ? { route: row.route } : {}),
  createdAt: row.createdAt.getTime(),
  ...(row.readAt ? { readAt: row.readAt.getTime() } : {}),
});

/** The user's messages, newest first, paged, with the unread count. */
export async function listMyMessages(db: Executor, userId: bigint, query: Static<typeof MyMessagesQuery>) {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  const where = and(eq(userMessages.userId, userId), query.unreadOnly ? isNull(userMessages.readAt) : undefined);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(userMessages).where(where);
  const [{ unread }] = await db.select({ unread: sql<number>`count(*)::int` }).from(userMessages)
    .where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt)));
  const rows = await db.select().from(userMessages).where(where).orderBy(desc(userMessages.id))
    .limit(pageSize).offset((pageNo - 1) * pageSize);
  return {
    records: rows.map(toUserMessage), total: Number(total), size: pageSize, current: pageNo,
    pages: Math.ceil(Number(total) / pageSize), unread: Number(unread),
  };
}

/**
 * Marks one of the user's messages read, or all of them. Another user's message answers exactly
 * as a missing one and nothing changes.
 */
export async function markMessagesRead(db: Db, now: Date, userId: bigint, target: { id: bigint } | { all: true }): Promise<UnreadCounts> {
  if ('id' in target) {
    const [row] = await db.select({ id: userMessages.id, readAt: userMessages.readAt }).from(userMessages)
      .where(and(eq(userMessages.id, target.id), eq(userMessages.userId, userId))).limit(1);
    if (!row) throw messageNotFound();
    if (!row.readAt) {
      await db.update(userMessages).set({ readAt: now })
        .where(and(eq(userMessages.id, target.id), eq(userMessages.userId, userId), isNull(userMessages.readAt)));
    }
  } else {
    await db.update(userMessages).set({ readAt: now }).where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt)));
  }
  return unreadCounts(db, now, userId);
}

// ─── Operators: writing ───

interface CleanTranslation { lang: string; title: string; summary: string; bodyHtml: string; bodyText: string }

/** Checks the languages (known, once each, English among them) and cleans every body. */
function cleanTranslations(translations: AdminItemBody['translations']): CleanTranslation[] {
  const seen = new Set<string>();
  const clean = translations.map((t) => {
    const lang = checkLanguage(t.lang);
    if (seen.has(lang)) throw badRequest('invalid_request', `The language ${lang} is given twice.`);
    seen.add(lang);
    const title = t.title.trim();
    if (title === '') throw badRequest('invalid_request', `The ${lang} title is empty.`);
    const bodyHtml = sanitizeContentHtml(t.body);
    const bodyText = plainText(bodyHtml);
    if (bodyText === '' && !bodyHtml.includes('<img')) {
      throw badRequest('invalid_request', `The ${lang} body has nothing left to show after unsafe markup was removed.`);
    }
    const summary = (t.summary?.trim() || summaryOf(bodyText)).slice(0, 500);
    return { lang, title: plainText(title).slice(0, 200) || title.slice(0, 200), summary, bodyHtml, bodyText };
  });
  if (!seen.has(englishLang)) {
    throw badRequest('invalid_request', 'Every item needs an English (en-us) text: other languages fall back to it.');
  }
  return clean;
}

function checkWindow(publishAt: Date, expireAt: Date | null) {
  if (expireAt && expireAt.getTime() <= publishAt.getTime()) {
    throw badRequest('invalid_request', 'The expiry must come after the publishing time.');
  }
}

async function checkCover(db: Executor, coverImageId: string | undefined) {
  if (!coverImageId) return;
  const [image] = await db.select({ id: contentImages.id }).from(contentImages).where(eq(contentImages.id, coverImageId)).limit(1);
  if (!image) throw notFound('file_not_found', 'The cover image was not found: upload it first.');
}

/** Audience as stored: user ids checked to exist (ids as decimal strings, deduplicated). */
async function checkAudience(db: Executor, kind: ContentKind, audience: Audience | undefined): Promise<Audience> {
  if (!audience || audience.kind === 'all') return { kind: 'all' };
  if (kind !== 'announcement') throw badRequest('invalid_request', 'Only announcements have an audience; notices, help and news are for everyone.');
  if (audience.kind !== 'users') return audience;
  const ids = [...new Set(audience.userIds)];
  const found = await db.select({ id: users.id }).from(users).where(inArray(users.id, ids.map(BigInt)));
  if (found.length !== ids.length) {
    const known = new Set(found.map((row) => String(row.id)));
    const missing = ids.filter((id) => !known.has(id)).slice(0, 5);
    throw badRequest('invalid_request', `No user has the id ${missing.join(', ')}.`);
  }
  return { kind: 'users', userIds: ids };
}

type StoredAudience = Audience & { push?: true };

/** A notice or announcement published later with push asked for is marked to be pushed when it publishes. */
function withPushFlag(audience: Audience, kind: ContentKind, push: boolean | undefined, publishAt: Date, now: Date): StoredAudience {
  const scheduled = publishAt.getTime() > now.getTime();
  return push && scheduled && (kind === 'notice' || kind === 'announcement') ? { ...audience, push: true } : audience;
}

/** The audience as the contract has it (without the scheduler's push mark). */
function audienceOf(stored: unknown): Audience {
  const { push: _push, ...audience } = stored as StoredAudience;
  return audience as Audience;
}

export interface WrittenItem { item: AdminContentItem; before?: AdminContentItem }

/** Creates an item (published at `publishAt`, now when absent). */
export async function createItem(tx: Tx, now: Date, operatorId: bigint, body: AdminItemBody): Promise<AdminContentItem> {
  if (!(contentKinds as readonly string[]).includes(body.kind)) throw badRequest('invalid_request', 'Unknown kind of content.');
  const translations = cleanTranslations(body.translations);
  const publishAt = body.publishAt !== undefined ? new Date(body.publishAt) : now;
  const expireAt = body.expireAt !== undefined ? new Date(body.expireAt) : null;
  checkWindow(publishAt, expireAt);
  await checkCover(tx, body.coverImageId);
  const audience = withPushFlag(await checkAudience(tx, body.kind, body.audience), body.kind, body.push, publishAt, now);
  if (body.popup && body.kind !== 'announcement') throw badRequest('invalid_request', 'Only announcements can be shown as a pop-up.');
  const [item] = await tx.insert(contentItems).values({
    kind: body.kind, audience, popup: body.popup ?? false, category: body.category ?? null, coverImageId: body.coverImageId ?? null,
    publishAt, expireAt, createdBy: operatorId, updatedAt: now, createdAt: now,
  }).returning();
  await tx.insert(contentTranslations).values(translations.map((t) => ({ itemId: item.id, ...t })));
  return adminItem(tx, now, item.id);
}

/** A notice from the short form: one language (English when absent), published now or at `publishAt`. */
export async function createNotice(tx: Tx, now: Date, operatorId: bigint, body: AdminNoticeBody): Promise<AdminContentItem> {
  const lang = checkLanguage(body.lang);
  if (lang !== englishLang) {
    throw badRequest('invalid_request', 'A notice needs English first (other languages fall back to it): write it in en-us, then add translations.');
  }
  return createItem(tx, now, operatorId, {
    kind: 'notice', translations: [{ lang: 'en-us', title: body.title, body: body.body }], push: true,
    ...(body.publishAt !== undefined ? { publishAt: body.publishAt } : {}),
    ...(body.expireAt !== undefined ? { expireAt: body.expireAt } : {}),
  });
}

/** Replaces an item's fields and translations (the kind stays); answers it before and after. */
export async function updateItem(tx: Tx, now: Date, id: bigint, body: AdminItemUpdateBody): Promise<Required<WrittenItem>> {
  const [row] = await tx.select().from(contentItems).where(eq(contentItems.id, id)).for('update');
  if (!row) throw itemNotFound();
  if (row.kind !== body.kind) throw badRequest('invalid_request', `This item is a ${row.kind}; its kind cannot change.`);
  if (row.withdrawnAt) throw conflict('record_already_decided', 'This item was withdrawn; write a new one instead.');
  const before = await adminItem(tx, now, id, true);
  const translations = cleanTranslations(body.translations);
  const publishAt = body.publishAt !== undefined ? new Date(body.publishAt) : row.publishAt;
  const expireAt = body.expireAt !== undefined ? new Date(body.expireAt) : null;
  checkWindow(publishAt, expireAt);
  await checkCover(tx, body.coverImageId);
  const audience = withPushFlag(await checkAudience(tx, row.kind as ContentKind, body.audience), row.kind as ContentKind, body.push, publishAt, now);
  if (body.popup && row.kind !== 'announcement') throw badRequest('invalid_request', 'Only announcements can be shown as a pop-up.');
  await tx.update(contentItems).set({
    audience, popup: body.popup ?? false, category: body.category ?? null, coverImageId: body.coverImageId ?? null,
    publishAt, expireAt, updatedAt: now,
  }).where(eq(contentItems.id, id));
  await tx.delete(contentTranslations).where(eq(contentTranslations.itemId, id));
  await tx.insert(contentTranslations).values(translations.map((t) => ({ itemId: id, ...t })));
  return { before, item: await adminItem(tx, now, id, true) };
}

/** Withdraws an item: it disappears from every list at once; a second withdrawal is refused. */
export async function withdrawItem(tx: Tx, now: Date, id: bigint): Promise<Required<WrittenItem>> {
  const [row] = await tx.select().from(contentItems).where(eq(contentItems.id, id)).for('update');
  if (!row) throw itemNotFound();
  if (row.withdrawnAt) throw conflict('record_already_decided', 'This item was withdrawn already.');
  const before = await adminItem(tx, now, id);
  await tx.update(contentItems).set({ withdrawnAt: now, updatedAt: now }).where(eq(contentItems.id, id));
  return { before, item: await adminItem(tx, now, id) };
}

// ─── Operators: reading ───

export function statusOf(item: Pick<ItemRow, 'publishAt' | 'expireAt' | 'withdrawnAt'>, now: Date): ContentStatus {
  if (item.withdrawnAt) return 'withdrawn';
  if (item.publishAt.getTime() > now.getTime()) return 'scheduled';
  if (item.expireAt && item.expireAt.getTime() <= now.getTime()) return 'expired';
  return 'live';
}

const readerCount = sql<number>`(select count(*)::int from ${contentReads} where ${contentReads.itemId} = ${contentItems.id})`;

function toAdminItem(item: ItemRow, readers: number, translations: Array<typeof contentTranslations.$inferSelect>,
  withBodies: boolean, now: Date): AdminContentItem {
  const sorted = [...translations].sort((a, b) => (a.lang === englishLang ? -1 : b.lang === englishLang ? 1 : a.lang.localeCompare(b.lang)));
  return {
    id: String(item.id),
    kind: item.kind as ContentKind,
    title: sorted.find((t) => t.lang === englishLang)?.title ?? sorted[0]?.title ?? '',
    translations: sorted.map((t) => ({ lang: t.lang, title: t.title, summary: t.summary, ...(withBodies ? { bodyHtml: t.bodyHtml } : {}) })),
    audience: audienceOf(item.audience),
    ...((item.audience as { push?: boolean }).push ? { push: true } : {}),
    popup: item.popup,
    ...(item.category ? { category: item.category } : {}),
    ...(item.coverImageId ? { coverImageId: item.coverImageId, coverUrl: contentImagePath(item.coverImageId) } : {}),
    publishAt: item.publishAt.getTime(),
    ...(item.expireAt ? { expireAt: item.expireAt.getTime() } : {}),
    ...(item.withdrawnAt ? { withdrawnAt: item.withdrawnAt.getTime() } : {}),
    status: statusOf(item, now),
    readers: Number(readers),
    createdBy: String(item.createdBy),
    createdAt: item.createdAt.getTime(),
    updatedAt: item.updatedAt.getTime(),
  };
}

/** One item as operators see it, with every translation and its body. */
export async function adminItem(db: Executor, now: Date, id: bigint, withBodies = true): Promise<AdminContentItem> {
  const [row] = await db.select({ item: contentItems, readers: readerCount }).from(contentItems).where(eq(contentItems.id, id)).limit(1);
  if (!row) throw itemNotFound();
  const translations = await db.select().from(contentTranslations).where(eq(contentTranslations.itemId, id));
  return toAdminItem(row.item, row.readers, translations, withBodies, now);
}

/** Every item (of a kind), newest first, `q` over any language's title. */
export async function listAdminItems(db: Executor, now: Date, query: { kind?: ContentKind; q?: string; pageNo?: number; pageSize?: number }) {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  const conditions: SQL[] = [];
  if (query.kind) conditions.push(eq(contentItems.kind, query.kind));
  if (query.q && query.q.trim() !== '') {
    conditions.push(sql`exists (select 1 from ${contentTranslations} where ${contentTranslations.itemId} = ${contentItems.id} and ${contentTranslations.title} ilike ${likePattern(query.q.trim())})`);
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(contentItems).where(where);
  const rows = await db.select({ item: contentItems, readers: readerCount }).from(contentItems).where(where)
    .orderBy(desc(contentItems.publishAt), desc(contentItems.id)).limit(pageSize).offset((pageNo - 1) * pageSize);
  const texts = rows.length === 0 ? [] : await db.select().from(contentTranslations)
    .where(inArray(contentTranslations.itemId, rows.map((row) => row.item.id)));
  const records = rows.map((row) => toAdminItem(row.item, row.readers, texts.filter((t) => t.itemId === row.item.id), false, now));
  return { records, total: Number(total), size: pageSize, current: pageNo, pages: Math.ceil(Number(total) / pageSize) };
}

/** Who read an item, most recent first. */
export async function listReaders(db: Executor, id: bigint, query: { pageNo?: number; pageSize?: number }) {
  const [row] = await db.select({ id: contentItems.id }).from(contentItems).where(eq(contentItems.id, id)).limit(1);
  if (!row) throw itemNotFound();
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(contentReads).where(eq(contentReads.itemId, id));
  const rows = await db.select({ read: contentReads, user: users }).from(contentReads)
    .innerJoin(users, eq(users.id, contentReads.userId)).where(eq(contentReads.itemId, id))
    .orderBy(desc(contentReads.readAt), asc(contentReads.userId)).limit(pageSize).offset((pageNo - 1) * pageSize);
  const records = rows.map(({ read, user }) => ({
    userId: String(user.id),
    account: user.email ?? (user.phone ? `+${user.phoneCountryCode ?? ''} ${user.phone}` : user.username ?? String(user.id)),
    readAt: read.readAt.getTime(),
  }));
  return { records, total: Number(total), size: pageSize, current: pageNo, pages: Math.ceil(Number(total) / pageSize) };
}

/**
 * The users an audience names, for a push: undefined for everyone. "VIP n or more" reaches the
 * users whose stored level (user_levels, kept by the daily job and after large movements) is n
 * or more.
 */
export async function audienceUserIds(db: Executor, audience: Audience): Promise<bigint[] | undefined> {
  switch (audience.kind) {
    case 'all': return undefined;
    case 'users': return audience.userIds.map(BigInt);
    case 'vip': {
      if (audience.min <= 0) return undefined;
      const rows = await db.select({ userId: userLevels.userId }).from(userLevels).where(sql`${userLevels.level} >= ${audience.min}`);
      return rows.map((row) => row.userId);
    }
    case 'kyc': {
      if (audience.min <= 0) return undefined;
      const rows = await db.selectDistinct({ userId: kycApplications.userId }).from(kycApplications)
        .where(sql`${kycApplications.status} = 'approved' and ${kycApplications.level} >= ${audience.min}`);
      return rows.map((row) => row.userId);
    }
  }
}

/** What pushing content needs (services.push). */
export interface ContentPusher {
  toCategory(category: 'notices', payload: ReturnType<typeof pushOf>, audience?: readonly bigint[]): Promise<unknown>;
}

/**
 * Hands a notice or announcement visible now to the push service for its audience's subscribers
 * of the notices category; the fan-out runs on in the service's queue (its failure goes to onError).
 */
export async function pushItem(db: Executor, push: ContentPusher, item: AdminContentItem, onError: (error: unknown) => void): Promise<boolean> {
  if ((item.kind !== 'notice' && item.kind !== 'announcement') || item.status !== 'live') return false;
  const audience = await audienceUserIds(db, item.audience);
  if (audience !== undefined && audience.length === 0) return false;
  push.toCategory('notices', pushOf(item), audience).catch(onError);
  return true;
}

/** The system setting holding the publishing time up to which scheduled pushes were sent (ms). */
export const pushCursorKey = 'content_push_cursor';

/**
 * The scheduler's step (run every few seconds by the instance leading the engines): pushes every
 * notice or announcement marked for push whose publishing time passed since the last step, once.
 * The window is claimed with a compare-and-set on the cursor, so two instances never push the
 * same window; the first step only sets the cursor (nothing from before the server ran is pushed
 * late). Answers how many it pushed.
 */
export async function pushScheduled(db: Db, push: ContentPusher, now: Date, onError: (error: unknown) => void): Promise<number> {
  const [cursor] = await db.select().from(systemSettings).where(eq(systemSettings.key, pushCursorKey)).limit(1);
  const nowText = String(now.getTime());
  if (!cursor) {
    await db.insert(systemSettings).values({ key: pushCursorKey, value: nowText, updatedAt: now }).onConflictDoNothing();
    return 0;
  }
  const from = Number(cursor.value);
  if (!(from < now.getTime())) return 0;
  const claimed = await db.update(systemSettings).set({ value: nowText, updatedAt: now })
    .where(and(eq(systemSettings.key, pushCursorKey), eq(systemSettings.value, cursor.value))).returning({ key: systemSettings.key });
  if (claimed.length === 0) return 0;
  const due = await db.select({ id: contentItems.id }).from(contentItems)
    .where(and(inArray(contentItems.kind, ['notice', 'announcement']), sql`${contentItems.audience}->>'push' = 'true'`,
      sql`${contentItems.publishAt} > ${new Date(from)} and ${contentItems.publishAt} <= ${now}`, visibleAt(now)))
    .orderBy(asc(contentItems.publishAt), asc(contentItems.id));
  let pushed = 0;
  for (const { id } of due) {
    if (await pushItem(db, push, await adminItem(db, now, id, false), onError)) pushed += 1;
  }
  return pushed;
}

/** The push a published notice or announcement sends: its English title and summary, and the page it opens. */
export function pushOf(item: AdminContentItem) {
  const english = item.translations.find((t) => t.lang === englishLang) ?? item.translations[0];
  return {
    title: english?.title ?? '',
    body: english?.summary ?? '',
    route: item.kind === 'notice' ? `/noticeDetail?id=${item.id}` : `/announcements?id=${item.id}`,
    category: 'notices',
    tag: `content-${item.id}`,
  };
}

export type { ListOptions };
