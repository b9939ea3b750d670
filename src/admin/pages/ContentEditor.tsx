// Writing one notice, announcement, help article or news item: a drawer with the text per language
// (English required, every other language optional and falling back to English), the rich-text
// body, what the kind needs (help category, news cover and section, announcement audience and
// pop-up, push), the schedule, and beside it the phone preview of the language in front. A saved
// item can be withdrawn with a reason; an announcement shows who read it.
import { useEffect, useMemo, useState } from 'react';
import { i18n } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import {
  Alert, App, Button, Drawer, Form, Input, InputNumber, Radio, Select, Skeleton, Space, Switch, Tabs, Tag, Typography,
} from 'antd';
import type { ContentKind } from '../../api/contract/content.ts';
import { locales } from '../../lib/locales.ts';
import {
  contentImageUrl, contentLangs, fallbackLang, useContentItemQuery, useCreateContentItemMutation, useUpdateContentItemMutation,
  useUploadContentImageMutation, useWithdrawContentItemMutation, type AdminContentItem, type ContentLangCode,
} from '../contentApi.ts';
import { failureMessage } from '../errors.ts';
import { checkDraft, draftOf, emptyDraft, textBegun, type ContentDraft, type DraftErrors, type DraftText } from './ContentDraft.ts';
import { sanitizeContentHtml } from './ContentHtml.tsx';
import { ContentPreview } from './ContentPreview.tsx';
import { ContentReaders } from './ContentReaders.tsx';
import { ContentStateTag } from './ContentStateTag.tsx';
import { ReasonModal } from './ReasonModal.tsx';
import { RichTextEditor } from './RichTextEditor.tsx';

export const langName = (lang: string) => locales.find((locale) => locale.value === lang)?.text ?? lang;

/** Uploads with the admin API and answers the image's address, or throws the refusal in the operator's words. */
function useImageUpload() {
  const [upload] = useUploadContentImageMutation();
  return async (file: File) => {
    const answer = await upload(file);
    if ('error' in answer) throw new Error(failureMessage(answer.error));
    return answer.data;
  };
}

function LanguageFields({ lang, text, errors, kind, onChange, onUploadImage }: {
  lang: ContentLangCode; text: DraftText; errors: DraftErrors; kind: ContentKind;
  onChange(text: DraftText): void; onUploadImage(file: File): Promise<string>;
}) {
  const { t } = useLingui();
  const error = (field: string) => errors[`${lang}.${field}`];
  const help = (field: string) => (error(field) ? i18n._(error(field)!) : undefined);
  return (
    <>
      {lang !== fallbackLang && (
        <Alert type="info" showIcon style={{ marginBottom: 12 }}
          title={t`Optional. Readers in this language see the English text when this one is empty.`} />
      )}
      <Form.Item label={t`Title`} htmlFor={`content-title-${lang}`} required={lang === fallbackLang}
        validateStatus={error('title') ? 'error' : undefined} help={help('title')}>
        <Input id={`content-title-${lang}`} value={text.title} maxLength={200} showCount
          onChange={(event) => onChange({ ...text, title: event.target.value })} data-testid={`content-title-${lang}`} />
      </Form.Item>
      {kind !== 'notice' && (
        <Form.Item label={t`Summary`} htmlFor={`content-summary-${lang}`} validateStatus={error('summary') ? 'error' : undefined}
          help={help('summary') ?? t`Shown in lists. Left empty, the server takes the start of the body.`}>
          <Input.TextArea id={`content-summary-${lang}`} value={text.summary} maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }}
            onChange={(event) => onChange({ ...text, summary: event.target.value })} />
        </Form.Item>
      )}
      <Form.Item label={t`Body`} required={lang === fallbackLang} validateStatus={error('body') ? 'error' : undefined} help={help('body')}>
        <RichTextEditor value={text.body} label={t`Body`} invalid={!!error('body')} testId={`content-body-${lang}`}
          onChange={(body) => onChange({ ...text, body })} onUploadImage={onUploadImage} />
      </Form.Item>
    </>
  );
}

function AudienceFields({ draft, errors, onChange }: { draft: ContentDraft; errors: DraftErrors; onChange(draft: ContentDraft): void }) {
  const { t } = useLingui();
  return (
    <Form.Item label={t`Audience`} validateStatus={errors.audience ? 'error' : undefined} help={errors.audience ? i18n._(errors.audience) : undefined}>
      <Radio.Group value={draft.audienceKind} onChange={(event) => onChange({ ...draft, audienceKind: event.target.value })}
        aria-label={t`Audience`} options={[
          { value: 'all', label: t`Every user` },
          { value: 'vip', label: t`VIP level at least` },
          { value: 'kyc', label: t`Verification level at least` },
          { value: 'users', label: t`These users` },
        ]} />
      <div style={{ marginTop: 8 }}>
        {draft.audienceKind === 'vip' && (
          <InputNumber aria-label={t`Lowest VIP level`} min={0} max={20} precision={0} value={draft.vipMin}
            onChange={(value) => onChange({ ...draft, vipMin: value ?? 0 })} />
        )}
        {draft.audienceKind === 'kyc' && (
          <Select<1 | 2> aria-label={t`Lowest verification level`} value={draft.kycMin} style={{ width: 200 }}
            onChange={(value) => onChange({ ...draft, kycMin: value })}
            options={[{ value: 1, label: t`Basic` }, { value: 2, label: t`Advanced` }]} />
        )}
        {draft.audienceKind === 'users' && (
          <Input.TextArea aria-label={t`User ids`} placeholder={t`User ids, separated by commas or new lines`} value={draft.userIds}
            autoSize={{ minRows: 2, maxRows: 6 }} onChange={(event) => onChange({ ...draft, userIds: event.target.value })}
            data-testid="content-user-ids" />
        )}
      </div>
    </Form.Item>
  );
}

function CoverField({ draft, onChange }: { draft: ContentDraft; onChange(draft: ContentDraft): void }) {
  const { t } = useLingui();
  const [upload, { isLoading }] = useUploadContentImageMutation();
  const [failure, setFailure] = useState('');
  return (
    <Form.Item label={t`Cover image`}>
      <Space align="start" wrap>
        {draft.coverImageId && <img className="content-cover-thumb" src={contentImageUrl(draft.coverImageId)} alt={t`Cover image`} />}
        <Button loading={isLoading} onClick={() => {
          const input = document.createElement('input');
          input.type = 'file';
          input.accept = 'image/jpeg,image/png,image/webp';
          input.onchange = async () => {
            const file = input.files?.[0];
            if (!file) return;
            setFailure('');
            const answer = await upload(file);
            if ('error' in answer) setFailure(failureMessage(answer.error));
            else onChange({ ...draft, coverImageId: answer.data.id });
          };
          input.click();
        }}>{draft.coverImageId ? t`Replace the cover` : t`Upload a cover`}</Button>
        {draft.coverImageId && <Button onClick={() => onChange({ ...draft, coverImageId: undefined })}>{t`Remove the cover`}</Button>}
      </Space>
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginTop: 8 }} />}
    </Form.Item>
  );
}

function ScheduleFields({ draft, errors, onChange }: { draft: ContentDraft; errors: DraftErrors; onChange(draft: ContentDraft): void }) {
  const { t } = useLingui();
  return (
    <Space wrap align="start" size="large">
      <Form.Item label={t`Publish`} validateStatus={errors.publishAt ? 'error' : undefined} help={errors.publishAt ? i18n._(errors.publishAt) : undefined}>
        <Space>
          <Radio.Group value={draft.publishMode} onChange={(event) => onChange({ ...draft, publishMode: event.target.value })} aria-label={t`Publish`}
            options={[{ value: 'now', label: t`Now` }, { value: 'at', label: t`At` }]} />
          <Input type="datetime-local" aria-label={t`Publish at`} value={draft.publishAt} disabled={draft.publishMode === 'now'} style={{ width: 210 }}
            onChange={(event) => onChange({ ...draft, publishAt: event.target.value })} data-testid="content-publish-at" />
        </Space>
      </Form.Item>
      <Form.Item label={t`Expires`} validateStatus={errors.expireAt ? 'error' : undefined}
        help={errors.expireAt ? i18n._(errors.expireAt) : t`Empty: never.`}>
        <Input type="datetime-local" aria-label={t`Expires at`} value={draft.expireAt} style={{ width: 210 }} allowClear
          onChange={(event) => onChange({ ...draft, expireAt: event.target.value })} data-testid="content-expire-at" />
      </Form.Item>
    </Space>
  );
}

/** The drawer's title for a new or existing item of a kind. */
function useEditorTitle(kind: ContentKind, isNew: boolean) {
  const { t } = useLingui();
  const titles: Record<ContentKind, [string, string]> = {
    notice: [t`New notice`, t`Edit notice`],
    announcement: [t`New announcement`, t`Edit announcement`],
    help: [t`New help article`, t`Edit help article`],
    article: [t`New news article`, t`Edit news article`],
  };
  return titles[kind][isNew ? 0 : 1];
}

export function ContentEditor({ kind, itemId, open, onClose }: {
  kind: ContentKind; itemId: string | undefined; open: boolean; onClose(): void;
}) {
  const { t } = useLingui();
  // A list leaves the bodies out: an existing item is read whole before it is edited.
  const { data: item, error: loadError, isFetching: loading } = useContentItemQuery(itemId ?? '', { skip: !open || !itemId });
  const [changeReason, setChangeReason] = useState('');
  const { message } = App.useApp();
  const [saved, setSaved] = useState<AdminContentItem | undefined>(item);
  const [draft, setDraft] = useState<ContentDraft>(() => (item ? draftOf(item) : emptyDraft(kind)));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [lang, setLang] = useState<ContentLangCode>(fallbackLang);
  const [failure, setFailure] = useState('');
  const [withdrawing, setWithdrawing] = useState(false);
  const [readersOpen, setReadersOpen] = useState(false);
  const [create, { isLoading: creating }] = useCreateContentItemMutation();
  const [update, { isLoading: updating }] = useUpdateContentItemMutation();
  const [withdraw] = useWithdrawContentItemMutation();
  const uploadImage = useImageUpload();
  const title = useEditorTitle(kind, !saved);

  useEffect(() => {
    if (!open || (itemId && item?.id !== itemId)) return;
    setSaved(item);
    setDraft(item ? draftOf(item) : emptyDraft(kind));
    setErrors({});
    setFailure('');
    setChangeReason('');
    setLang(fallbackLang);
    // A list refetched after a save hands a new object of the same item: the form is reset only
    // when another item (or none) is opened, never under the operator's typing.
  }, [open, itemId, item?.id, kind]);

  const change = (next: ContentDraft) => {
    setDraft(next);
    if (Object.keys(errors).length) setErrors(checkDraft(next, Date.now()).errors);
  };

  const save = async () => {
    setFailure('');
    const { body, errors: found } = checkDraft(draft, Date.now());
    setErrors(found);
    if (!body) {
      const firstLang = contentLangs.find((code) => Object.keys(found).some((key) => key.startsWith(`${code}.`)));
      if (firstLang) setLang(firstLang);
      return;
    }
    const answer = saved
      ? await update({ id: saved.id, body: { ...body, ...(changeReason.trim() ? { reason: changeReason.trim() } : {}) } })
      : await create(body);
    if ('error' in answer) {
      setFailure(failureMessage(answer.error));
      return;
    }
    setSaved(answer.data);
    setDraft(draftOf(answer.data));
    setChangeReason('');
    void message.success(t`Saved.`);
  };

  // The preview: the language in front, else English (as a reader of that language would see it).
  const preview = useMemo(() => {
    const own = draft.texts[lang];
    const shown = textBegun(own) ? lang : fallbackLang;
    const text = draft.texts[shown];
    const stored = saved?.translations.find((translation) => translation.lang === shown);
    const unchanged = !!stored && stored.bodyHtml === text.body;
    return { lang: shown, text, bodyHtml: unchanged ? stored.bodyHtml : sanitizeContentHtml(text.body), source: unchanged ? 'saved' as const : 'draft' as const };
  }, [draft, lang, saved]);

  const state = saved?.status;
  const waiting = !!itemId && saved?.id !== itemId;
  return (
    <Drawer open={open} onClose={onClose} size={Math.min(1240, window.innerWidth - 24)} title={title} destroyOnHidden rootClassName="admin-drawer content-drawer"
      extra={(
        <Space>
          {state && <ContentStateTag state={state} />}
          {saved && saved.kind === 'announcement' && <Button onClick={() => setReadersOpen(true)} data-testid="content-readers">{t`Readers`}</Button>}
          {saved && state !== 'withdrawn' && <Button danger onClick={() => setWithdrawing(true)} data-testid="content-withdraw">{t`Withdraw`}</Button>}
          <Button type="primary" loading={creating || updating} disabled={waiting} onClick={() => void save()} data-testid="content-save">
            {saved ? t`Save` : draft.publishMode === 'now' ? t`Publish` : t`Schedule`}
          </Button>
        </Space>
      )}>
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} data-testid="content-error" />}
      {loadError && <Alert type="error" showIcon role="alert" title={failureMessage(loadError)} style={{ marginBottom: 16 }} />}
      {waiting && loading && <Skeleton active paragraph={{ rows: 8 }} />}
      {saved?.withdrawnAt !== undefined && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t`Withdrawn: readers no longer see it.`}
          description={saved.withdrawReason} />
      )}
      {!waiting && <div className="content-editor-layout">
        <Form layout="vertical" requiredMark className="content-editor-form" component="div">
          <Tabs activeKey={lang} onChange={(key) => setLang(key as ContentLangCode)} data-testid="content-langs"
            items={contentLangs.map((code) => {
              const hasError = Object.keys(errors).some((key) => key.startsWith(`${code}.`));
              return {
                key: code,
                label: (
                  <span>
                    {langName(code)}
                    {code === fallbackLang && <Typography.Text type="danger"> *</Typography.Text>}
                    {code !== fallbackLang && textBegun(draft.texts[code]) && <Tag color="blue" style={{ marginInlineStart: 6 }}>✓</Tag>}
                    {hasError && <Tag color="error" style={{ marginInlineStart: 6 }}>!</Tag>}
                  </span>
                ),
                children: (
                  <LanguageFields lang={code} text={draft.texts[code]} errors={errors} kind={kind} onUploadImage={async (file) => (await uploadImage(file)).url}
                    onChange={(text) => change({ ...draft, texts: { ...draft.texts, [code]: text } })} />
                ),
              };
            })} />
          {kind === 'help' && (
            <Form.Item label={t`Category`} htmlFor="content-category" required validateStatus={errors.category ? 'error' : undefined}
              help={errors.category ? i18n._(errors.category) : t`A short name, such as deposits or trading.`}>
              <Input id="content-category" value={draft.category} maxLength={32} style={{ maxWidth: 280 }}
                onChange={(event) => change({ ...draft, category: event.target.value })} />
            </Form.Item>
          )}
          {kind === 'article' && (
            <>
              <CoverField draft={draft} onChange={change} />
              <Form.Item label={t`Section`} htmlFor="content-category" validateStatus={errors.category ? 'error' : undefined}
                help={errors.category ? i18n._(errors.category) : t`Optional: a short name, such as markets.`}>
                <Input id="content-category" value={draft.category} maxLength={32} style={{ maxWidth: 280 }}
                  onChange={(event) => change({ ...draft, category: event.target.value })} />
              </Form.Item>
            </>
          )}
          {kind === 'announcement' && (
            <>
              <AudienceFields draft={draft} errors={errors} onChange={change} />
              <Form.Item>
                <Space>
                  <Switch checked={draft.popup} onChange={(popup) => change({ ...draft, popup })} aria-label={t`Show as a pop-up`} />
                  <span>{t`Show as a pop-up when the app opens, once for each user`}</span>
                </Space>
              </Form.Item>
            </>
          )}
          {(kind === 'notice' || kind === 'announcement') && (
            <Form.Item>
              <Space>
                <Switch checked={draft.push} onChange={(push) => change({ ...draft, push })} aria-label={t`Send a push notification`} />
                <span>{t`Send a push notification to subscribers when it is published`}</span>
              </Space>
            </Form.Item>
          )}
          <ScheduleFields draft={draft} errors={errors} onChange={change} />
          {saved && (
            <Form.Item label={t`Reason for the change (kept in the audit trail)`} htmlFor="content-change-reason">
              <Input id="content-change-reason" value={changeReason} maxLength={500} onChange={(event) => setChangeReason(event.target.value)} />
            </Form.Item>
          )}
        </Form>
        <ContentPreview kind={kind} lang={preview.lang} title={preview.text.title} summary={preview.text.summary} bodyHtml={preview.bodyHtml}
          coverUrl={draft.coverImageId ? contentImageUrl(draft.coverImageId) : undefined} source={preview.source}
          publishAt={saved?.publishAt} />
      </div>}
      {saved && <ContentReaders item={readersOpen ? saved : undefined} onClose={() => setReadersOpen(false)} />}
      <ReasonModal open={withdrawing} title={t`Withdraw this item`} label={t`Reason (kept in the audit trail)`} okText={t`Withdraw`}
        minLength={2} maxLength={500} onCancel={() => setWithdrawing(false)}
        onSubmit={async (reason) => {
          const answer = await withdraw({ id: saved!.id, reason });
          if ('error' in answer) return failureMessage(answer.error);
          setWithdrawing(false);
          void message.success(t`Withdrawn.`);
          onClose();
          return undefined;
        }}>
        <Typography.Paragraph>{t`Readers no longer see it. This cannot be undone.`}</Typography.Paragraph>
      </ReasonModal>
    </Drawer>
  );
}
