// Content in the back office: a tab per kind (notices, announcements, help, news), each a table of
// its items (the title, the languages written, publishing and expiry, where the item is in its
// life) with a search, the editor drawer (ContentEditor.tsx) for a new or existing item, who read
// an announcement, and withdrawal with a reason. Notices also have a quick form: English,
// published at once.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Form, Input, Modal, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { ContentKind } from '../../api/contract/content.ts';
import {
  fallbackLang, useContentItemsQuery, usePublishNoticeMutation, useUploadContentImageMutation,
  useWithdrawContentItemMutation, type AdminContentItem,
} from '../contentApi.ts';
import { failureMessage } from '../errors.ts';
import { formatCount, formatTime } from '../format.ts';
import { hasContent } from './ContentHtml.tsx';
import { ContentEditor, langName } from './ContentEditor.tsx';
import { ContentReaders } from './ContentReaders.tsx';
import { ContentStateTag } from './ContentStateTag.tsx';
import { ReasonModal } from './ReasonModal.tsx';
import { RichTextEditor } from './RichTextEditor.tsx';
import './ContentScreen.css';

/** The title to list an item under: English, else the first language written. */
const listTitle = (item: AdminContentItem) =>
  (item.translations.find((translation) => translation.lang === fallbackLang) ?? item.translations[0])?.title ?? '';

function QuickNotice({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [errors, setErrors] = useState<{ title?: string; body?: string }>({});
  const [failure, setFailure] = useState('');
  const [publish, { isLoading }] = usePublishNoticeMutation();
  const [upload] = useUploadContentImageMutation();
  const submit = async () => {
    const found = {
      title: title.trim() ? undefined : t`Write a title.`,
      body: hasContent(body) ? undefined : t`Write the notice.`,
    };
    setErrors(found);
    if (found.title || found.body) return;
    setFailure('');
    // The server takes a short notice in English only (every notice needs English first).
    const answer = await publish({ title: title.trim(), body, lang: fallbackLang });
    if ('error' in answer) {
      setFailure(failureMessage(answer.error));
      return;
    }
    void message.success(t`The notice is published.`);
    setTitle('');
    setBody('');
    onClose();
  };
  return (
    <Modal open={open} onCancel={onClose} width={760} title={t`Quick notice`} okText={t`Publish now`} onOk={() => void submit()}
      okButtonProps={{ loading: isLoading }} destroyOnHidden>
      <Typography.Paragraph type="secondary">
        {t`Published at once in English, and pushed to users who subscribed to notices. For other languages, a schedule or an expiry, use New notice.`}
      </Typography.Paragraph>
      <Form layout="vertical" component="div">
        <Form.Item label={t`Title`} htmlFor="quick-notice-title" required validateStatus={errors.title ? 'error' : undefined} help={errors.title}>
          <Input id="quick-notice-title" value={title} maxLength={200} onChange={(event) => setTitle(event.target.value)} />
        </Form.Item>
        <Form.Item label={t`Body`} required validateStatus={errors.body ? 'error' : undefined} help={errors.body}>
          <RichTextEditor value={body} onChange={setBody} label={t`Body`} testId="quick-notice-body" invalid={!!errors.body}
            onUploadImage={async (file) => {
              const answer = await upload(file);
              if ('error' in answer) throw new Error(failureMessage(answer.error));
              return answer.data.url;
            }} />
        </Form.Item>
      </Form>
      {failure && <Alert type="error" showIcon role="alert" title={failure} />}
    </Modal>
  );
}

function ContentList({ kind }: { kind: ContentKind }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const [pageNo, setPageNo] = useState(1);
  const [q, setQ] = useState('');
  const [editing, setEditing] = useState<{ id?: string } | undefined>();
  const [readersOf, setReadersOf] = useState<AdminContentItem>();
  const [withdrawing, setWithdrawing] = useState<AdminContentItem>();
  const [quick, setQuick] = useState(false);
  const { data, isFetching, error, refetch } = useContentItemsQuery({ kind, pageNo, q });
  const [withdraw] = useWithdrawContentItemMutation();
  const newLabel = { notice: t`New notice`, announcement: t`New announcement`, help: t`New help article`, article: t`New news article` }[kind];
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Button type="primary" onClick={() => setEditing({})} data-testid={`content-new-${kind}`}>{newLabel}</Button>
        {kind === 'notice' && <Button onClick={() => setQuick(true)} data-testid="content-quick-notice">{t`Quick notice`}</Button>}
        <Input.Search allowClear placeholder={t`Search English titles`} aria-label={t`Search English titles`} style={{ width: 280 }} maxLength={100}
          onSearch={(value) => {
            setQ(value.trim());
            setPageNo(1);
          }} />
        <Button onClick={() => void refetch()} loading={isFetching}>{t`Refresh`}</Button>
      </Space>
      {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} style={{ marginBottom: 16 }} />}
      <Table<AdminContentItem> rowKey="id" loading={isFetching} dataSource={data?.records ?? []} data-testid={`content-table-${kind}`}
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        columns={[
          { key: 'title', title: t`Title`, render: (_, item) => <span className="admin-cut" title={listTitle(item)}>{listTitle(item)}</span> },
          { key: 'langs', title: t`Languages`, render: (_, item) => (
            <Space size={[2, 2]} wrap>
              {item.translations.map((translation) => <Tag key={translation.lang} title={langName(translation.lang)}>{translation.lang}</Tag>)}
            </Space>
          ) },
          ...(kind === 'help' || kind === 'article'
            ? [{ key: 'category', title: kind === 'help' ? t`Category` : t`Section`, render: (_: unknown, item: AdminContentItem) => item.category ?? '—' }]
            : []),
          { key: 'publish', title: t`Publish`, render: (_, item) => <span className="admin-time">{formatTime(item.publishAt)}</span> },
          { key: 'expire', title: t`Expires`, render: (_, item) => <span className="admin-time">{item.expireAt ? formatTime(item.expireAt) : '—'}</span> },
          ...(kind === 'announcement'
            ? [{ key: 'readers', title: t`Readers`, render: (_: unknown, item: AdminContentItem) => formatCount(item.readers) }]
            : []),
          { key: 'state', title: t`State`, render: (_, item) => <ContentStateTag state={item.status} /> },
          { key: 'action', title: '', render: (_, item) => (
            <Space>
              <Button size="small" onClick={() => setEditing({ id: item.id })}>{t`Edit`}</Button>
              {kind === 'announcement' && <Button size="small" onClick={() => setReadersOf(item)}>{t`Readers`}</Button>}
              {item.withdrawnAt === undefined && <Button size="small" danger onClick={() => setWithdrawing(item)}>{t`Withdraw`}</Button>}
            </Space>
          ) },
        ]} />
      <ContentEditor kind={kind} itemId={editing?.id} open={!!editing} onClose={() => setEditing(undefined)} />
      <ContentReaders item={readersOf} onClose={() => setReadersOf(undefined)} />
      {kind === 'notice' && <QuickNotice open={quick} onClose={() => setQuick(false)} />}
      <ReasonModal open={!!withdrawing} title={t`Withdraw this item`} label={t`Reason (kept in the audit trail)`} okText={t`Withdraw`}
        minLength={2} maxLength={500} onCancel={() => setWithdrawing(undefined)}
        onSubmit={async (reason) => {
          const answer = await withdraw({ id: withdrawing!.id, reason });
          if ('error' in answer) return failureMessage(answer.error);
          setWithdrawing(undefined);
          void message.success(t`Withdrawn.`);
          return undefined;
        }}>
        <Typography.Paragraph>{withdrawing ? listTitle(withdrawing) : ''}</Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t`Readers no longer see it. This cannot be undone.`}</Typography.Paragraph>
      </ReasonModal>
    </>
  );
}

export function ContentScreen() {
  const { t } = useLingui();
  return (
    <Card>
      <Tabs destroyOnHidden items={[
        { key: 'notice', label: t`Notices`, children: <ContentList kind="notice" /> },
        { key: 'announcement', label: t`Announcements`, children: <ContentList kind="announcement" /> },
        { key: 'help', label: t`Help centre`, children: <ContentList kind="help" /> },
        { key: 'article', label: t`News`, children: <ContentList kind="article" /> },
      ]} />
    </Card>
  );
}
