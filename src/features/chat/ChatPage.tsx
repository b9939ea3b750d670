// chat: live chat with support (issue 21). Bubbles with their time, a delivered mark (the server
// numbered the message) and a read mark (support's read mark reached it), support's typing, photos
// (picked or taken, previewed, uploaded), history kept on the phone and refetched (afterSeq) on
// every (re)connection, earlier messages on demand, and an OUTBOX in IndexedDB: a message written
// offline waits there with its client message id and is sent when the network returns (by this
// page, never by the service worker); a refused one gets a retry button. When nobody is on duty
// the offline-hours form takes the composer's place. Texts are shown as text, never as HTML.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useLingui } from '@lingui/react/macro';
import type { ChatEvent, ChatMessage } from '../../api/contract/chat.ts';
import type { ApiError } from '../../api/baseQuery.ts';
import { uploadFile } from '../../api/uploadFile.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import PushOffer from '../../components/PushOffer.tsx';
import { formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';
import type { UserState } from '../../entities/session/userSlice.ts';
import { chatApi } from './chatApi.ts';
import { openChatSocket } from './chatSocket.ts';
import {
  loadKept, loadOutbox, mergeMessages, newClientMessageId, saveKept, saveOutbox, type KeptConversation, type OutboxEntry,
} from './chatStore.ts';
import { ChatImage } from './ChatImage.tsx';
import './chat.css';
import { prepareChatTexts } from './chatTexts.ts';

export const prepare = prepareChatTexts;

const typingShownMs = 5_000;
const typingSentEveryMs = 4_000;
const olderPageSize = 30;
const emptyConversation: KeptConversation = { status: 'none', messages: [], operatorReadSeq: 0 };

type Dispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

export default function ChatPage() {
  const { t } = useLingui();
  const dispatch = useDispatch<Dispatch>();
  const token = useSelector((state: { user: UserState }) => state.user.token);
  const userId = String(useSelector((state: { user: UserState }) => state.user.userInfo.id) ?? '');
  const [kept, setKept] = useState<KeptConversation>(emptyConversation);
  const [outbox, setOutbox] = useState<OutboxEntry[]>([]);
  const [ready, setReady] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  const [supportTyping, setSupportTyping] = useState(false);
  const [olderDone, setOlderDone] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [draft, setDraft] = useState('');
  const [photo, setPhoto] = useState<{ file: File; url: string } | undefined>();
  const [photoError, setPhotoError] = useState<string | undefined>();
  const [uploading, setUploading] = useState(false);
  /** A message of the user's reached the server from this page: the first one on this device offers push. */
  const [deliveredHere, setDeliveredHere] = useState(false);
  const duty = chatApi.useChatDutyQuery(undefined, { skip: !token });
  const keptRef = useRef(kept);
  const outboxRef = useRef(outbox);
  const flushing = useRef(false);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const typingSentAt = useRef(0);
  const readSent = useRef(0);
  const listEnd = useRef<HTMLDivElement>(null);

  const updateKept = useCallback((change: (current: KeptConversation) => KeptConversation) => {
    keptRef.current = change(keptRef.current);
    setKept(keptRef.current);
    void saveKept(userId, keptRef.current);
  }, [userId]);
  const updateOutbox = useCallback((change: (current: OutboxEntry[]) => OutboxEntry[]) => {
    outboxRef.current = change(outboxRef.current);
    setOutbox(outboxRef.current);
    void saveOutbox(userId, outboxRef.current);
  }, [userId]);

  const addMessages = useCallback((messages: ChatMessage[], status?: KeptConversation['status'], operatorReadSeq?: number) => {
    updateKept((current) => {
      const last = messages[messages.length - 1];
      const switched = last !== undefined && current.conversationId !== undefined && last.conversationId !== current.conversationId;
      return {
        conversationId: last?.conversationId ?? current.conversationId,
        status: status ?? (last ? (last.system === 'closed' ? 'closed' : 'open') : current.status),
        messages: mergeMessages(switched ? [] : current.messages, messages),
        operatorReadSeq: Math.max(switched ? 0 : current.operatorReadSeq, operatorReadSeq ?? 0),
      };
    });
    const stored = new Set(messages.map((message) => message.clientMessageId).filter(Boolean));
    if (stored.size > 0 && outboxRef.current.some((entry) => stored.has(entry.clientMessageId))) {
      updateOutbox((current) => current.filter((entry) => !stored.has(entry.clientMessageId)));
    }
  }, [updateKept, updateOutbox]);

  /** Fetches what this phone has not seen: after its last message, or the latest page. */
  const fetchMissed = useCallback(async () => {
    const current = keptRef.current;
    const lastSeq = current.messages[current.messages.length - 1]?.seq;
    try {
      let history = await dispatch(chatApi.endpoints.chatHistory.initiate(lastSeq !== undefined ? { afterSeq: lastSeq, limit: 200 } : {},
        { forceRefetch: true })).unwrap();
      if (history.conversationId !== undefined && history.conversationId !== current.conversationId && lastSeq !== undefined) {
        // Another conversation since (the last one was closed): its latest page.
        history = await dispatch(chatApi.endpoints.chatHistory.initiate({}, { forceRefetch: true })).unwrap();
      }
      if (history.status === 'none') {
        updateKept(() => emptyConversation);
      } else {
        addMessages(history.messages, history.status, history.operatorReadSeq);
        updateKept((kept) => ({ ...kept, status: history.status, operatorReadSeq: Math.max(kept.operatorReadSeq, history.operatorReadSeq) }));
      }
      setLoadFailed(false);
    } catch {
      setLoadFailed(true);
    }
  }, [dispatch, addMessages, updateKept]);

  /** Sends the outbox in order; stops at the first network failure (the next 'online' resumes it). */
  const flush = useCallback(async () => {
    if (flushing.current || !token) return;
    flushing.current = true;
    try {
      for (;;) {
        const entry = outboxRef.current.find((candidate) => candidate.state === 'pending');
        if (!entry) break;
        updateOutbox((current) => current.map((item) => (item.clientMessageId === entry.clientMessageId ? { ...item, state: 'sending' } : item)));
        try {
          const message = await dispatch(chatApi.endpoints.chatSend.initiate({
            clientMessageId: entry.clientMessageId, ...(entry.text ? { text: entry.text } : {}), ...(entry.fileId ? { fileId: entry.fileId } : {}),
          })).unwrap();
          addMessages([message]);
          updateOutbox((current) => current.filter((item) => item.clientMessageId !== entry.clientMessageId));
          setDeliveredHere(true);
        } catch (caught) {
          const error = caught as ApiError;
          const refused = error.kind === 'api';
          updateOutbox((current) => current.map((item) => (item.clientMessageId === entry.clientMessageId
            ? { ...item, state: refused ? 'failed' : 'pending', ...(refused ? { error: error.message } : {}) } : item)));
          if (!refused) break;
        }
      }
    } finally {
      flushing.current = false;
    }
  }, [dispatch, token, addMessages, updateOutbox]);

  // What the phone kept, then what the server has, then the outbox.
  useEffect(() => {
    if (!token || !userId) return undefined;
    let cancelled = false;
    void Promise.all([loadKept(userId), loadOutbox(userId)]).then(async ([savedKept, savedOutbox]) => {
      if (cancelled) return;
      keptRef.current = savedKept ?? emptyConversation;
      setKept(keptRef.current);
      outboxRef.current = savedOutbox;
      setOutbox(savedOutbox);
      setReady(true);
      await fetchMissed();
      void flush();
    });
    return () => { cancelled = true; };
  }, [token, userId, fetchMissed, flush]);

  // Live events; every (re)connection fetches what was missed and sends the outbox.
  useEffect(() => {
    if (!token || !ready || typeof WebSocket === 'undefined') return undefined;
    const onEvent = (event: ChatEvent) => {
      if (event.type === 'chat.message' && event.message) {
        addMessages([event.message]);
        if (event.message.sender === 'operator') setSupportTyping(false);
      } else if (event.type === 'chat.read' && event.by === 'operator' && event.seq !== undefined) {
        const seq = event.seq;
        updateKept((current) => (current.conversationId === event.conversationId
          ? { ...current, operatorReadSeq: Math.max(current.operatorReadSeq, seq) } : current));
      } else if (event.type === 'chat.typing' && event.by === 'operator') {
        setSupportTyping(true);
        clearTimeout(typingTimer.current);
        typingTimer.current = setTimeout(() => setSupportTyping(false), typingShownMs);
      } else if (event.type === 'chat.status' && event.status) {
        const status = event.status;
        updateKept((current) => (current.conversationId === event.conversationId ? { ...current, status } : current));
      }
    };
    const close = openChatSocket({ token, onEvent, onSubscribed: () => { void fetchMissed().then(() => flush()); } });
    const online = () => { void flush(); };
    window.addEventListener('online', online);
    return () => {
      close();
      window.removeEventListener('online', online);
      clearTimeout(typingTimer.current);
    };
  }, [token, ready, addMessages, updateKept, fetchMissed, flush]);

  // Support's messages on screen are read: the read mark goes up to the last one.
  const lastSupportSeq = [...kept.messages].reverse().find((message) => message.sender !== 'user')?.seq ?? 0;
  // A new conversation numbers from 1 again.
  useEffect(() => { readSent.current = 0; }, [kept.conversationId]);
  useEffect(() => {
    if (!ready || lastSupportSeq <= readSent.current || document.visibilityState !== 'visible') return;
    readSent.current = lastSupportSeq;
    void dispatch(chatApi.endpoints.chatRead.initiate({ seq: lastSupportSeq }));
  }, [ready, lastSupportSeq, dispatch]);

  // The newest message in view.
  const lastKey = `${kept.messages.length}:${outbox.length}:${supportTyping}`;
  useEffect(() => {
    listEnd.current?.scrollIntoView?.({ block: 'end' });
  }, [lastKey]);

  useEffect(() => () => { if (photo) URL.revokeObjectURL(photo.url); }, [photo]);

  const enqueue = (entry: Omit<OutboxEntry, 'clientMessageId' | 'createdAt' | 'state'>) => {
    updateOutbox((current) => [...current, { ...entry, clientMessageId: newClientMessageId(), createdAt: Date.now(), state: 'pending' }]);
    void flush();
  };

  const submitText = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return;
    setDraft('');
    enqueue({ text });
  };

  const onDraft = (value: string) => {
    setDraft(value);
    const now = Date.now();
    if (value.trim() && keptRef.current.status === 'open' && now - typingSentAt.current > typingSentEveryMs && navigator.onLine) {
      typingSentAt.current = now;
      void dispatch(chatApi.endpoints.chatTyping.initiate());
    }
  };

  const pickPhoto = (file: File | undefined) => {
    setPhotoError(undefined);
    if (!file) return;
    setPhoto({ file, url: URL.createObjectURL(file) });
  };

  const sendPhoto = async () => {
    if (!photo) return;
    setUploading(true);
    setPhotoError(undefined);
    try {
      const uploaded = await uploadFile({ file: photo.file, fileName: photo.file.name || 'photo.jpg', purpose: 'chat', token });
      enqueue({ fileId: uploaded.id });
      setPhoto(undefined);
    } catch (caught) {
      setPhotoError((caught as ApiError).message ?? t`The photo could not be sent.`);
    } finally {
      setUploading(false);
    }
  };

  const retry = (clientMessageId: string) => {
    updateOutbox((current) => current.map((item) => (item.clientMessageId === clientMessageId ? { ...item, state: 'pending', error: undefined } : item)));
    void flush();
  };
  const discard = (clientMessageId: string) => updateOutbox((current) => current.filter((item) => item.clientMessageId !== clientMessageId));

  const loadOlder = async () => {
    const first = keptRef.current.messages[0];
    if (!first) return;
    setLoadingOlder(true);
    try {
      const older = await dispatch(chatApi.endpoints.chatHistory.initiate({ beforeSeq: first.seq, limit: olderPageSize }, { forceRefetch: true })).unwrap();
      if (older.messages.length < olderPageSize) setOlderDone(true);
      addMessages(older.messages);
    } catch {
      setLoadFailed(true);
    } finally {
      setLoadingOlder(false);
    }
  };

  const offline = duty.data?.onDuty === false && kept.status !== 'open';
  const firstSeq = kept.messages[0]?.seq ?? 1;
  const empty = ready && kept.messages.length === 0 && outbox.length === 0;

  return (
    <div className="chat-page">
      <PageHeader title={t`Live chat`} />
      <section className="chat-log" aria-label={t`Conversation with support`} aria-live="polite" data-testid="chat-log">
        {firstSeq > 1 && !olderDone && (
          <button type="button" className="chat-older" onClick={() => void loadOlder()} disabled={loadingOlder}>
            {loadingOlder ? t`Loading…` : t`Show earlier messages`}
          </button>
        )}
        {loadFailed && <p className="chat-note" role="status">{t`Could not reach support. Showing the messages kept on this phone.`}</p>}
        {empty && (
          <div className="chat-empty" data-testid="chat-empty">
            <p>{t`Ask us anything: deposits, withdrawals, trading or your account.`}</p>
            <p>{t`Send a message and a member of support will answer here.`}</p>
          </div>
        )}
        <ol className="chat-messages">
          {kept.messages.map((message) => (
            <MessageBubble key={`${message.conversationId}:${message.seq}`} message={message} read={message.seq <= kept.operatorReadSeq} token={token} />
          ))}
          {outbox.map((entry) => (
            <li key={entry.clientMessageId} className="chat-row chat-row-mine" data-testid="chat-outbox" data-state={entry.state}>
              <div className={`chat-bubble chat-bubble-mine ${entry.state === 'failed' ? 'chat-bubble-failed' : ''}`}>
                {entry.text && <p className="chat-text">{entry.text}</p>}
                {entry.fileId && <p className="chat-text">{t`Photo`}</p>}
                <span className="chat-meta">
                  {entry.state === 'failed'
                    ? <span role="alert">{entry.error ?? t`Not sent.`}</span>
                    : <span aria-label={t`Waiting to send`} title={t`Waiting to send`}>🕓</span>}
                </span>
              </div>
              {entry.state === 'failed' && (
                <div className="chat-failed-actions">
                  <button type="button" className="link-button" onClick={() => retry(entry.clientMessageId)}>{t`Retry`}</button>
                  <button type="button" className="link-button" onClick={() => discard(entry.clientMessageId)}>{t`Delete`}</button>
                </div>
              )}
            </li>
          ))}
        </ol>
        {supportTyping && <p className="chat-typing" role="status">{t`Support is typing…`}</p>}
        {kept.status === 'closed' && <p className="chat-note">{t`This conversation was closed. Write again to start a new one.`}</p>}
        {deliveredHere && <PushOffer reason="chat" reveal />}
        <div ref={listEnd} />
      </section>
      {offline ? <OfflineForm onSent={(message) => { addMessages([message]); setDeliveredHere(true); }} /> : (
        <footer className="chat-composer">
          {photo && (
            <div className="chat-photo-preview">
              <img src={photo.url} alt={t`Photo to send`} />
              <button type="button" className="link-button" onClick={() => setPhoto(undefined)}>{t`Remove`}</button>
              <button type="button" className="chat-send" data-testid="chat-photo-send" onClick={() => void sendPhoto()} disabled={uploading}>
                {uploading ? t`Sending…` : t`Send photo`}
              </button>
              {photoError && <p className="chat-error" role="alert">{photoError}</p>}
            </div>
          )}
          <form className="chat-form" onSubmit={submitText}>
            <label className="chat-attach" aria-label={t`Choose a photo`} title={t`Choose a photo`}>
              <input type="file" accept="image/jpeg,image/png,image/webp" data-testid="chat-photo-pick" onChange={(event) => pickPhoto(event.target.files?.[0])} />
              <span aria-hidden="true">🖼</span>
            </label>
            <label className="chat-attach" aria-label={t`Take a photo`} title={t`Take a photo`}>
              <input type="file" accept="image/*" capture="environment" onChange={(event) => pickPhoto(event.target.files?.[0])} />
              <span aria-hidden="true">📷</span>
            </label>
            <textarea className="chat-input" data-testid="chat-input" value={draft} rows={1} maxLength={2000} aria-label={t`Message`} placeholder={t`Write a message`}
              onChange={(event) => onDraft(event.target.value)}
              onKeyDown={(event) => { if (event.key === 'Enter' && !event.shiftKey) submitText(event); }} />
            <button type="submit" className="chat-send" data-testid="chat-send" disabled={!draft.trim()}>{t`Send`}</button>
          </form>
        </footer>
      )}
    </div>
  );
}

function MessageBubble({ message, read, token }: { message: ChatMessage; read: boolean; token: string }) {
  const { t } = useLingui();
  if (message.system === 'closed') {
    return <li className="chat-row chat-row-system"><p className="chat-system">{t`Support closed the conversation.`}</p></li>;
  }
  const mine = message.sender === 'user' || message.offlineForm === true;
  const [firstLine, ...rest] = (message.text ?? '').split('\n');
  return (
    <li className={`chat-row ${mine ? 'chat-row-mine' : 'chat-row-theirs'}`} data-testid="chat-message" data-seq={message.seq}
      data-sender={message.sender} data-mark={mine ? (read ? 'read' : 'delivered') : undefined}>
      <div className={`chat-bubble ${mine ? 'chat-bubble-mine' : 'chat-bubble-theirs'}`}>
        {!mine && <span className="chat-sender">{t`Support`}</span>}
        {message.offlineForm
          ? <><span className="chat-sender">{t`Left while support was away`}</span><p className="chat-text">{firstLine}</p><p className="chat-text">{rest.join('\n')}</p></>
          : message.text && <p className="chat-text">{message.text}</p>}
        {message.imageUrl && <ChatImage url={message.imageUrl} token={token} alt={t`Photo`} />}
        <span className="chat-meta">
          <time dateTime={isoOfEpochMs(message.createdAt)}>{formatEpochMs(message.createdAt)}</time>
          {mine && (read
            ? <span className="chat-mark chat-mark-read" aria-label={t`Read`} title={t`Read`}>✓✓</span>
            : <span className="chat-mark" aria-label={t`Delivered`} title={t`Delivered`}>✓</span>)}
        </span>
      </div>
    </li>
  );
}

function OfflineForm({ onSent }: { onSent: (message: ChatMessage) => void }) {
  const { t } = useLingui();
  const [contact, setContact] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState(false);
  const clientMessageId = useRef(newClientMessageId());
  const [leave, leaving] = chatApi.useChatOfflineFormMutation();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      const message = await leave({ contact: contact.trim(), text: text.trim(), clientMessageId: clientMessageId.current }).unwrap();
      onSent(message);
      setSent(true);
      setText('');
      clientMessageId.current = newClientMessageId();
    } catch (caught) {
      setError((caught as ApiError).message);
    }
  };
  return (
    <form className="chat-offline" onSubmit={(event) => void submit(event)} aria-label={t`Leave a message`}>
      <p>{t`Nobody from support is online right now. Leave a message and how to reach you, and we will answer as soon as we are back.`}</p>
      {sent && <p role="status">{t`Thank you: your message was left for support.`}</p>}
      <label>
        <span>{t`E-mail or phone`}</span>
        <input value={contact} onChange={(event) => setContact(event.target.value)} minLength={3} maxLength={254} required />
      </label>
      <label>
        <span>{t`Your message`}</span>
        <textarea value={text} onChange={(event) => setText(event.target.value)} maxLength={2000} rows={3} required />
      </label>
      {error && <p className="chat-error" role="alert">{error}</p>}
      <button type="submit" className="chat-send" disabled={leaving.isLoading || contact.trim().length < 3 || !text.trim()}>{t`Leave message`}</button>
    </form>
  );
}
