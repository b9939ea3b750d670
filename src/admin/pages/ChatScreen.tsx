// Live chat with users (issue 21, contract/chat.ts): the queue (open first, unassigned first; all
// or mine; unread counts), the selected conversation with the user's context beside it, a reply
// box with canned replies, assign to me, transfer to an operator on duty, close. The screen keeps
// a socket on the operators' "chat" channel (auth as operator) and refetches what an event touches;
// while it is open it sends the duty heartbeat, which is what puts this operator on duty.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Card, Descriptions, Empty, Input, List, Modal, Segmented, Select, Space, Tag, Typography } from 'antd';
import {
  chatAdminPaths, dutyHeartbeatMs, operatorChatChannel,
  type CannedReply, type ChatEvent, type ChatMessage, type ConversationDetail, type ConversationSummary, type DutyOperator,
} from '../../api/contract/chat.ts';
import { realtimePath } from '../../api/contract/market.ts';
import { apiPrefix } from '../../api/contract/paths.ts';
import type { PageOf } from '../../api/contract/wallet.ts';
import { adminApi } from '../api.ts';
import { failureMessage } from '../errors.ts';
import { formatTime } from '../format.ts';
import { fetchProof, readToken } from '../transport.ts';

const withId = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));

export const chatAdminApi = adminApi.enhanceEndpoints({ addTagTypes: ['ChatQueue', 'ChatConversation', 'ChatCanned', 'ChatDuty'] }).injectEndpoints({
  endpoints: (build) => ({
    chatQueue: build.query<PageOf<ConversationSummary>, { mine: boolean; status?: 'open' | 'closed' }>({
      query: ({ mine, status }) => ({ url: chatAdminPaths.conversations, params: { pageSize: 50, mine: mine || undefined, status }, quiet: true }),
      providesTags: ['ChatQueue'],
    }),
    chatConversation: build.query<ConversationDetail, string>({
      query: (id) => ({ url: withId(chatAdminPaths.conversation, id), params: { limit: 100 }, quiet: true }),
      providesTags: ['ChatConversation'],
    }),
    chatReply: build.mutation<ChatMessage, { id: string; text: string }>({
      query: ({ id, text }) => ({ url: withId(chatAdminPaths.reply, id), method: 'POST', body: { text }, quiet: true }),
      invalidatesTags: ['ChatQueue', 'ChatConversation'],
    }),
    chatAssign: build.mutation<ConversationSummary, string>({
      query: (id) => ({ url: withId(chatAdminPaths.assign, id), method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['ChatQueue', 'ChatConversation'],
    }),
    chatTransfer: build.mutation<ConversationSummary, { id: string; operatorId: string }>({
      query: ({ id, operatorId }) => ({ url: withId(chatAdminPaths.transfer, id), method: 'POST', body: { operatorId }, quiet: true }),
      invalidatesTags: ['ChatQueue', 'ChatConversation'],
    }),
    chatClose: build.mutation<ConversationSummary, string>({
      query: (id) => ({ url: withId(chatAdminPaths.close, id), method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['ChatQueue', 'ChatConversation'],
    }),
    chatRead: build.mutation<{ operatorReadSeq: number }, { id: string; seq: number }>({
      query: ({ id, seq }) => ({ url: withId(chatAdminPaths.read, id), method: 'POST', body: { seq }, quiet: true }),
      invalidatesTags: ['ChatQueue'],
    }),
    chatTyping: build.mutation<null, string>({
      query: (id) => ({ url: withId(chatAdminPaths.typing, id), method: 'POST', body: {}, quiet: true }),
    }),
    chatCanned: build.query<CannedReply[], void>({
      query: () => ({ url: chatAdminPaths.canned, quiet: true }),
      providesTags: ['ChatCanned'],
    }),
    chatCreateCanned: build.mutation<CannedReply, { lang: string; title: string; text: string }>({
      query: (body) => ({ url: chatAdminPaths.canned, method: 'POST', body, quiet: true }),
      invalidatesTags: ['ChatCanned'],
    }),
    chatDeleteCanned: build.mutation<null, string>({
      query: (id) => ({ url: withId(chatAdminPaths.cannedDelete, id), method: 'POST', body: {}, quiet: true }),
      invalidatesTags: ['ChatCanned'],
    }),
    chatHeartbeat: build.mutation<DutyOperator[], void>({
      query: () => ({ url: chatAdminPaths.duty, method: 'POST', body: {}, quiet: true }),
    }),
  }),
});

const {
  useChatQueueQuery, useChatConversationQuery, useChatReplyMutation, useChatAssignMutation, useChatTransferMutation, useChatCloseMutation,
  useChatReadMutation, useChatTypingMutation, useChatCannedQuery, useChatCreateCannedMutation, useChatDeleteCannedMutation, useChatHeartbeatMutation,
} = chatAdminApi;

type Dispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

/** The operators' chat channel: every event refetches what it touches. */
function useChatChannel(onEvent: (event: ChatEvent & { userId?: string }) => void) {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    let socket: WebSocket | undefined;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    const connect = () => {
      const current = new WebSocket(`${location.origin.replace(/^http/, 'ws')}${apiPrefix}${realtimePath}`);
      socket = current;
      current.onopen = () => current.send(JSON.stringify({ op: 'auth', token: readToken(), as: 'operator' }));
      current.onmessage = (message) => {
        let frame: { type?: string; channel?: string; data?: ChatEvent; code?: string; channels?: string[] };
        try { frame = JSON.parse(String(message.data)); } catch { return; }
        if (frame.type === 'subscribed' && frame.channels?.includes(operatorChatChannel)) {
          attempt = 0;
          // Connected (again): what happened meanwhile is refetched.
          handler.current({ type: 'chat.status', conversationId: '' });
        } else if (frame.type === 'update' && frame.channel === operatorChatChannel && frame.data) {
          handler.current(frame.data);
        } else if (frame.type === 'error' && frame.code === 'unauthorized') {
          stopped = true;
          current.close(1000, 'unauthorized');
        }
      };
      current.onclose = () => {
        if (stopped || socket !== current) return;
        retry = setTimeout(connect, Math.min(30_000, 1000 * 2 ** attempt));
        attempt += 1;
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      socket?.close(1000, 'done');
    };
  }, []);
}

export function ChatScreen() {
  const { t } = useLingui();
  const dispatch = useDispatch<Dispatch>();
  const [mine, setMine] = useState(false);
  const [selected, setSelected] = useState<string | undefined>();
  const [typingIn, setTypingIn] = useState<string | undefined>();
  const [onDuty, setOnDuty] = useState<DutyOperator[]>([]);
  const queue = useChatQueueQuery({ mine });
  const [heartbeat] = useChatHeartbeatMutation();
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const beat = () => { void heartbeat().unwrap().then(setOnDuty, () => undefined); };
    beat();
    const timer = setInterval(beat, dutyHeartbeatMs);
    return () => clearInterval(timer);
  }, [heartbeat]);

  useChatChannel((event) => {
    if (event.type === 'chat.typing' && event.by === 'user') {
      setTypingIn(event.conversationId);
      clearTimeout(typingTimer.current);
      typingTimer.current = setTimeout(() => setTypingIn(undefined), 5000);
      return;
    }
    if (event.type === 'chat.message') setTypingIn(undefined);
    dispatch(chatAdminApi.util.invalidateTags(['ChatQueue', 'ChatConversation']));
  });

  const records = queue.data?.records ?? [];
  const dutyNames = onDuty.map((operator) => operator.email).join(', ') || '—';
  return (
    <div className="admin-chat" style={{ display: 'grid', gridTemplateColumns: 'minmax(240px, 320px) 1fr', gap: 16 }}>
      <Card title={t`Conversations`} size="small" extra={(
        <Segmented size="small" value={mine ? 'mine' : 'all'} onChange={(value) => setMine(value === 'mine')}
          options={[{ value: 'all', label: t`All` }, { value: 'mine', label: t`Mine` }]} />
      )}>
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }} data-testid="chat-duty">
          {t`On duty: ${dutyNames}`}
        </Typography.Paragraph>
        {queue.isError && <Alert type="error" showIcon title={t`The conversations could not be loaded.`} />}
        <List<ConversationSummary> dataSource={records} loading={queue.isFetching && records.length === 0} data-testid="chat-queue"
          locale={{ emptyText: <Empty description={t`No conversations`} /> }}
          renderItem={(conversation) => {
            const unread = conversation.lastSeq - conversation.operatorReadSeq;
            return (
              <List.Item onClick={() => setSelected(conversation.id)} data-testid="chat-queue-item" data-conversation={conversation.id}
                style={{ cursor: 'pointer', background: conversation.id === selected ? '#e6f4ff' : undefined, paddingInline: 8 }}>
                <List.Item.Meta
                  title={<Space>{conversation.userLabel}{conversation.status === 'closed' ? <Tag>{t`Closed`}</Tag>
                    : conversation.assignedOperatorId ? null : <Tag color="orange">{t`Unassigned`}</Tag>}</Space>}
                  description={<Typography.Text ellipsis style={{ maxWidth: 220 }}>{typingIn === conversation.id ? t`Typing…` : conversation.lastText ?? ''}</Typography.Text>} />
                {unread > 0 && <Badge count={unread} aria-label={t`${unread} unread`} />}
              </List.Item>
            );
          }} />
      </Card>
      {selected ? <Conversation id={selected} typing={typingIn === selected} onDuty={onDuty} />
        : <Card><Empty description={t`Choose a conversation`} /></Card>}
    </div>
  );
}

function Conversation({ id, typing, onDuty }: { id: string; typing: boolean; onDuty: DutyOperator[] }) {
  const { t } = useLingui();
  const detail = useChatConversationQuery(id);
  const [reply, replying] = useChatReplyMutation();
  const [assign] = useChatAssignMutation();
  const [transfer] = useChatTransferMutation();
  const [close] = useChatCloseMutation();
  const [read] = useChatReadMutation();
  const [sendTyping] = useChatTypingMutation();
  const canned = useChatCannedQuery();
  const [text, setText] = useState('');
  const [failure, setFailure] = useState('');
  const [transferTo, setTransferTo] = useState<string | undefined>();
  const [cannedOpen, setCannedOpen] = useState(false);
  const typingSent = useRef(0);
  const data = detail.data;
  const lastSeq = data?.conversation.lastSeq ?? 0;
  const readSeq = data?.conversation.operatorReadSeq ?? 0;

  useEffect(() => {
    if (lastSeq > readSeq) void read({ id, seq: lastSeq });
  }, [id, lastSeq, readSeq, read]);

  const act = async (work: () => Promise<unknown>) => {
    setFailure('');
    try {
      await work();
    } catch (error) {
      setFailure(failureMessage(error));
    }
  };
  const send = () => act(async () => {
    const trimmed = text.trim();
    if (!trimmed) return;
    await reply({ id, text: trimmed }).unwrap();
    setText('');
  });
  const onText = (value: string) => {
    setText(value);
    if (Date.now() - typingSent.current > 4000 && value.trim()) {
      typingSent.current = Date.now();
      void sendTyping(id);
    }
  };
  const cannedOptions = useMemo(() => (canned.data ?? []).map((row) => ({ value: row.id, label: `${row.title} (${row.lang})` })), [canned.data]);

  if (detail.isError) return <Card><Alert type="error" showIcon title={t`The conversation could not be loaded.`} /></Card>;
  if (!data) return <Card loading />;
  const open = data.conversation.status === 'open';
  return (
    <div style={{ display: 'grid', gridTemplateColumns: '1fr minmax(220px, 300px)', gap: 16 }}>
      <Card size="small" title={data.conversation.userLabel} data-testid="chat-conversation" extra={open && (
        <Space wrap>
          <Button size="small" onClick={() => void act(() => assign(id).unwrap())}>{t`Assign to me`}</Button>
          <Select size="small" style={{ width: 180 }} placeholder={t`Transfer to…`} value={transferTo} onChange={setTransferTo}
            aria-label={t`Transfer to`} options={onDuty.map((operator) => ({ value: operator.operatorId, label: operator.email }))} />
          <Button size="small" disabled={!transferTo} onClick={() => void act(async () => {
            await transfer({ id, operatorId: transferTo! }).unwrap();
            setTransferTo(undefined);
          })}>{t`Transfer`}</Button>
          <Button size="small" danger onClick={() => void act(() => close(id).unwrap())}>{t`Close`}</Button>
        </Space>
      )}>
        {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 8 }} />}
        <div style={{ maxHeight: 480, overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: 8 }} aria-live="polite" data-testid="chat-admin-log">
          {data.messages.map((message) => <AdminBubble key={message.seq} message={message} userRead={message.seq <= data.userReadSeq} />)}
          {typing && <Typography.Text type="secondary">{t`The user is typing…`}</Typography.Text>}
        </div>
        {open ? (
          <Space.Compact style={{ width: '100%', marginTop: 12 }} direction="vertical">
            <Space>
              <Select size="small" style={{ width: 240 }} placeholder={t`Canned replies`} aria-label={t`Canned replies`} value={null}
                options={cannedOptions} onChange={(value: string) => setText((canned.data ?? []).find((row) => row.id === value)?.text ?? '')} />
              <Button size="small" type="link" onClick={() => setCannedOpen(true)}>{t`Manage canned replies`}</Button>
            </Space>
            <Input.TextArea value={text} onChange={(event) => onText(event.target.value)} rows={3} maxLength={2000}
              aria-label={t`Reply`} placeholder={t`Write a reply`} data-testid="chat-reply-input"
              onPressEnter={(event) => { if (!event.shiftKey) { event.preventDefault(); void send(); } }} />
            <Button type="primary" data-testid="chat-reply-send" onClick={() => void send()} loading={replying.isLoading} disabled={!text.trim()}>{t`Send reply`}</Button>
          </Space.Compact>
        ) : <Alert type="info" title={t`This conversation is closed.`} style={{ marginTop: 12 }} />}
      </Card>
      <ContextCard detail={data} />
      <CannedManager open={cannedOpen} onClose={() => setCannedOpen(false)} replies={canned.data ?? []} />
    </div>
  );
}

function AdminBubble({ message, userRead }: { message: ChatMessage; userRead: boolean }) {
  const { t } = useLingui();
  if (message.system === 'closed') return <Typography.Text type="secondary" style={{ textAlign: 'center' }}>{t`Conversation closed`}</Typography.Text>;
  const fromUser = message.sender === 'user' || message.offlineForm === true;
  return (
    <div data-testid="chat-admin-message" data-seq={message.seq} style={{
      alignSelf: fromUser ? 'flex-start' : 'flex-end', maxWidth: '75%', padding: '6px 10px', borderRadius: 10,
      background: fromUser ? '#f0f0f0' : '#1677ff', color: fromUser ? undefined : '#fff',
    }}>
      {message.offlineForm && <Tag color="purple">{t`Offline form`}</Tag>}
      {message.text && <div style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{message.text}</div>}
      {message.imageUrl && <ChatPhoto url={message.imageUrl} />}
      <div style={{ fontSize: 11, opacity: 0.75 }}>
        {formatTime(message.createdAt)}{!fromUser && (userRead ? ` · ${t`Read`}` : ` · ${t`Delivered`}`)}
      </div>
    </div>
  );
}

function ChatPhoto({ url }: { url: string }) {
  const { t } = useLingui();
  const [src, setSrc] = useState<string | undefined>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let made: string | undefined;
    let cancelled = false;
    fetchProof(url).then(({ objectUrl }) => {
      made = objectUrl;
      if (cancelled) URL.revokeObjectURL(objectUrl); else setSrc(objectUrl);
    }, () => { if (!cancelled) setFailed(true); });
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  if (failed) return <Typography.Text type="danger">{t`The photo could not be loaded.`}</Typography.Text>;
  return src ? <img src={src} alt={t`Photo from the user`} data-testid="chat-admin-image" style={{ maxWidth: 240, borderRadius: 6, display: 'block' }} /> : null;
}

function ContextCard({ detail }: { detail: ConversationDetail }) {
  const { t } = useLingui();
  const { context } = detail;
  const levelText = context.kycLevel === 0 ? t`Not verified` : context.kycLevel === 1 ? t`Basic (level 1)` : t`Advanced (level 2)`;
  return (
    <Card size="small" title={t`The user's context`} data-testid="chat-context">
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t`User`}>#{context.userId} · {context.account}</Descriptions.Item>
        <Descriptions.Item label={t`Verification`}>{levelText}</Descriptions.Item>
        <Descriptions.Item label={t`Account opened`}>{formatTime(context.createTime)}</Descriptions.Item>
        <Descriptions.Item label={t`Balances`}>
          {context.balances.filter((row) => !/^0\.?0*$/.test(row.available) || !/^0\.?0*$/.test(row.frozen))
            .map(({ available, currency, frozen }) => t`${available} ${currency} (${frozen} frozen)`).join(', ') || '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t`Last 30 days`}>
          {context.last30Days.map(({ currency, deposits: { count: deposits, total: deposited }, withdrawals: { count: withdrawals, total: withdrawn } }) =>
            t`${currency}: ${deposits} deposits (${deposited}), ${withdrawals} withdrawals (${withdrawn})`).join('; ') || '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t`Rejections`}>{context.rejections.count}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

function CannedManager({ open, onClose, replies }: { open: boolean; onClose: () => void; replies: CannedReply[] }) {
  const { t } = useLingui();
  const [create, creating] = useChatCreateCannedMutation();
  const [remove] = useChatDeleteCannedMutation();
  const [lang, setLang] = useState('en');
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [failure, setFailure] = useState('');
  const add = async () => {
    setFailure('');
    try {
      await create({ lang, title, text }).unwrap();
      setTitle('');
      setText('');
    } catch (error) {
      setFailure(failureMessage(error));
    }
  };
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t`Canned replies`}>
      <List<CannedReply> size="small" dataSource={replies} locale={{ emptyText: t`No canned replies yet` }}
        renderItem={(row) => (
          <List.Item actions={[<Button key="delete" size="small" danger onClick={() => void remove(row.id)}>{t`Delete`}</Button>]}>
            <List.Item.Meta title={`${row.title} (${row.lang})`} description={row.text} />
          </List.Item>
        )} />
      <Space direction="vertical" style={{ width: '100%', marginTop: 12 }}>
        {failure && <Alert type="error" showIcon title={failure} />}
        <Space>
          <Input style={{ width: 80 }} value={lang} onChange={(event) => setLang(event.target.value)} aria-label={t`Language`} />
          <Input value={title} onChange={(event) => setTitle(event.target.value)} placeholder={t`Title`} aria-label={t`Title`} maxLength={80} />
        </Space>
        <Input.TextArea value={text} onChange={(event) => setText(event.target.value)} placeholder={t`Text`} aria-label={t`Text`} rows={3} maxLength={2000} />
        <Button type="primary" loading={creating.isLoading} disabled={!title.trim() || !text.trim()} onClick={() => void add()}>{t`Add`}</Button>
      </Space>
    </Modal>
  );
}
