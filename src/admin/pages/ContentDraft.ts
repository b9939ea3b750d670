// The content editor's form as plain data: what the operator is writing (every language, the
// audience, the schedule) and the one check that turns it into the server's body
// (contract AdminItemBody) or says, field by field, what is wrong. Pure, so the rules are tested
// without the screen: English is required (the others fall back to it), a language that is begun
// is finished (title and body), times are the operator's local time, expiry after publishing.
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { AdminItemBody, Audience, ContentKind } from '../../api/contract/content.ts';
import { contentLangs, fallbackLang, type AdminContentItem, type ContentLangCode } from '../contentApi.ts';
import { hasContent } from './ContentHtml.tsx';

export interface DraftText {
  title: string;
  summary: string;
  body: string;
}

export type AudienceKind = Audience['kind'];

export interface ContentDraft {
  kind: ContentKind;
  texts: Record<ContentLangCode, DraftText>;
  audienceKind: AudienceKind;
  vipMin: number;
  kycMin: 1 | 2;
  /** User ids as typed: separated by commas, spaces or new lines. */
  userIds: string;
  popup: boolean;
  push: boolean;
  category: string;
  coverImageId?: string;
  publishMode: 'now' | 'at';
  /** `datetime-local` values (the operator's zone); '' for none. */
  publishAt: string;
  expireAt: string;
}

export type DraftErrors = Partial<Record<string, MessageDescriptor>>;

const emptyText = (): DraftText => ({ title: '', summary: '', body: '' });
const emptyTexts = () => Object.fromEntries(contentLangs.map((lang) => [lang, emptyText()])) as Record<ContentLangCode, DraftText>;

const pad = (value: number) => String(value).padStart(2, '0');

/** Epoch ms as a `datetime-local` value in the operator's zone. */
export function toLocalInput(ms: number | undefined): string {
  if (ms === undefined) return '';
  const date = new Date(ms);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (the operator's zone) as epoch ms; undefined if it is not one. */
export function fromLocalInput(text: string): number | undefined {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?$/.test(text)) return undefined;
  const ms = new Date(text).getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

export function emptyDraft(kind: ContentKind): ContentDraft {
  return {
    kind, texts: emptyTexts(), audienceKind: 'all', vipMin: 1, kycMin: 1, userIds: '', popup: false, push: false,
    category: '', publishMode: 'now', publishAt: '', expireAt: '',
  };
}

/** The form of a saved item (its bodies as the server stored them). */
export function draftOf(item: AdminContentItem): ContentDraft {
  const draft = emptyDraft(item.kind);
  for (const translation of item.translations) {
    draft.texts[translation.lang] = { title: translation.title, summary: translation.summary, body: translation.bodyHtml };
  }
  const audience = item.audience;
  return {
    ...draft,
    audienceKind: audience.kind,
    vipMin: audience.kind === 'vip' ? audience.min : 1,
    kycMin: audience.kind === 'kyc' && audience.min === 2 ? 2 : 1,
    userIds: audience.kind === 'users' ? audience.userIds.join('\n') : '',
    popup: item.popup,
    push: item.push,
    category: item.category ?? '',
    coverImageId: item.coverImageId,
    publishMode: 'at',
    publishAt: toLocalInput(item.publishAt),
    expireAt: toLocalInput(item.expireAt),
  };
}

/** Whether the operator has begun this language (any of its fields written). */
export const textBegun = (text: DraftText) => text.title.trim() !== '' || text.summary.trim() !== '' || hasContent(text.body);

const categoryPattern = /^[a-z0-9_-]{1,32}$/;
const userIdPattern = /^[1-9][0-9]{0,17}$/;
export const userIdsMax = 10_000;
export const bodyLengthMax = 100_000;

function audienceOf(draft: ContentDraft, errors: DraftErrors): Audience | undefined {
  if (draft.audienceKind === 'all') return { kind: 'all' };
  if (draft.audienceKind === 'vip') {
    if (!Number.isInteger(draft.vipMin) || draft.vipMin < 0 || draft.vipMin > 20) errors.audience = msg`A VIP level is a whole number from 0 to 20.`;
    return { kind: 'vip', min: draft.vipMin };
  }
  if (draft.audienceKind === 'kyc') return { kind: 'kyc', min: draft.kycMin };
  const ids = [...new Set(draft.userIds.split(/[\s,;]+/).filter(Boolean))];
  if (ids.length === 0) errors.audience = msg`Enter at least one user id.`;
  else if (ids.some((id) => !userIdPattern.test(id))) errors.audience = msg`User ids are whole numbers, separated by commas or new lines.`;
  else if (ids.length > userIdsMax) errors.audience = msg`At most 10,000 users at a time.`;
  return { kind: 'users', userIds: ids };
}

function checkTexts(draft: ContentDraft, errors: DraftErrors): AdminItemBody['translations'] {
  const translations: AdminItemBody['translations'] = [];
  for (const lang of contentLangs) {
    const text = draft.texts[lang];
    if (lang !== fallbackLang && !textBegun(text)) continue;
    const title = text.title.trim();
    if (!title) errors[`${lang}.title`] = lang === fallbackLang ? msg`English needs a title: other languages fall back to it.` : msg`Write a title, or clear this language.`;
    else if (title.length > 200) errors[`${lang}.title`] = msg`At most 200 characters.`;
    if (text.summary.trim().length > 500) errors[`${lang}.summary`] = msg`At most 500 characters.`;
    if (!hasContent(text.body)) errors[`${lang}.body`] = lang === fallbackLang ? msg`English needs a body: other languages fall back to it.` : msg`Write the body, or clear this language.`;
    else if (text.body.length > bodyLengthMax) errors[`${lang}.body`] = msg`The body is too long (at most 100,000 characters of HTML).`;
    translations.push({ lang, title, ...(text.summary.trim() ? { summary: text.summary.trim() } : {}), body: text.body });
  }
  return translations;
}

/** The server's body for this draft, or what is wrong with it (keys: "<lang>.title", "audience", "publishAt"...). */
export function checkDraft(draft: ContentDraft, now: number): { body?: AdminItemBody; errors: DraftErrors } {
  const errors: DraftErrors = {};
  const translations = checkTexts(draft, errors);
  const body: AdminItemBody = { kind: draft.kind, translations };
  if (draft.kind === 'announcement') {
    const audience = audienceOf(draft, errors);
    if (audience) body.audience = audience;
    body.popup = draft.popup;
  }
  if (draft.kind === 'notice' || draft.kind === 'announcement') body.push = draft.push;
  const category = draft.category.trim();
  if (draft.kind === 'help' && !category) errors.category = msg`Choose the help centre category.`;
  if ((draft.kind === 'help' || draft.kind === 'article') && category) {
    if (!categoryPattern.test(category)) errors.category = msg`A category is 1 to 32 small letters, digits, - or _.`;
    else body.category = category;
  }
  if (draft.kind === 'article' && draft.coverImageId) body.coverImageId = draft.coverImageId;
  let publishAt = now;
  if (draft.publishMode === 'at') {
    const at = fromLocalInput(draft.publishAt);
    if (at === undefined) errors.publishAt = msg`Choose when it is published.`;
    else {
      body.publishAt = at;
      publishAt = at;
    }
  }
  if (draft.expireAt !== '') {
    const expire = fromLocalInput(draft.expireAt);
    if (expire === undefined) errors.expireAt = msg`This is not a date and time.`;
    else if (expire <= publishAt) errors.expireAt = msg`The expiry must be after publishing.`;
    else body.expireAt = expire;
  }
  return Object.keys(errors).length ? { errors } : { body, errors };
}
