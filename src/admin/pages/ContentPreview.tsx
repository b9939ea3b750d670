// What a reader sees on a phone: a 390 × 844 frame with the app's detail page (its bar, the title,
// the date, a news cover, the body). The body is drawn from the allow-listed tree (ContentHtml.tsx
// RichTextView), as the app draws it: the server's sanitized body once saved, the draft cleaned
// here before that. Nothing in the frame is set as HTML.
import { useLingui } from '@lingui/react/macro';
import type { ContentKind } from '../../api/contract/content.ts';
import { formatTime } from '../format.ts';
import { RichTextView } from './ContentHtml.tsx';

export function ContentPreview({ kind, title, summary, bodyHtml, coverUrl, publishAt, lang, source }: {
  kind: ContentKind; title: string; summary: string; bodyHtml: string; coverUrl?: string; publishAt?: number; lang: string;
  /** Whether the body shown is the server's saved version or the draft cleaned here. */
  source: 'saved' | 'draft';
}) {
  const { t } = useLingui();
  const pageTitle = { notice: t`Notice`, announcement: t`Announcement`, help: t`Help centre`, article: t`News` }[kind];
  return (
    <figure className="content-preview" aria-label={t`Phone preview`} data-testid="content-preview">
      <div className="content-phone" lang={lang}>
        <div className="content-phone-bar">
          <span aria-hidden className="content-phone-back">‹</span>
          <span>{pageTitle}</span>
        </div>
        <div className="content-phone-page">
          {coverUrl && kind === 'article' && <img className="content-phone-cover" src={coverUrl} alt="" data-testid="preview-cover" />}
          <h1 className="content-phone-title" data-testid="preview-title">{title || t`(no title)`}</h1>
          {publishAt !== undefined && <div className="content-phone-date">{formatTime(publishAt)}</div>}
          {summary && kind !== 'notice' && <p className="content-phone-summary">{summary}</p>}
          <RichTextView html={bodyHtml} className="content-phone-body" />
        </div>
      </div>
      <figcaption className="content-preview-caption">
        {source === 'saved' ? t`Saved version, as the server stored it.` : t`Draft, cleaned as the server will clean it. Save to see the stored version.`}
      </figcaption>
    </figure>
  );
}
