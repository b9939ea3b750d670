// chat: live chat with support (issue 21). Bubbles with their time, a delivered mark (the server
// numbered the message) and a read mark (support's read mark reached it), support's typing, photos
// (picked or taken, previewed, uploaded), history kept on the phone and refetched (afterSeq) on
// every (re)connection, earlier messages on demand, and an OUTBOX on the device: a message written
// offline waits there with its client message id and is sent when the network returns (by this
// page, never by the service worker); a refused one gets a retry button. When nobody is on duty
// the offline-hours form takes the composer's place. Texts are shown as text, never as HTML.
// The page only renders and dispatches: the state machine is the chat slice (chatSlice.ts), its
// work the chat's listeners (chatListeners.ts), added while the page is open.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { useLingui } from '@lingui/react/macro';
import type { ChatMessage } from '../../api/contract/chat.ts';
import type { ApiError } from '../../api/baseQuery.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import PushOffer from '../../components/PushOffer.tsx';
import { formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';
import { chatApi } from './chatApi.ts';
import { openChat, type ChatDispatch } from './chatListeners.ts';
import {
  discardAsked, draftTyped, messageQueued, offlineFormSent, olderRequested, retryAsked, selectChat, type ChatRootState,
} from './chatSlice.ts';
import { newClientMessageId } from './chatStore.ts';
import { ChatImage } from './ChatImage.tsx';
import { useChatPhoto } from './useChatPhoto.ts';
import './chat.css';
import { prepareChatTexts } from './chatTexts.ts';

export const prepare = prepareChatTexts;

const selectToken = (state: ChatRootState) => state.user.token;
const selectUserId = (state: ChatRootState) => String(state.user.userInfo.id ?? '');

export default function ChatPage() {
  const { t } = useLingui();
  const dispatch = useDispatch<ChatDispatch>();
  const token = useSelector(selectToken);
  const userId = useSelector(selectUserId);
  const { phase, kept, outbox, loadFailed, supportTyping, olderDone, loadingOlder, deliveredHere } = useSelector(selectChat);
  const duty = chatApi.useChatDutyQuery(undefined, { skip: !token });
  const listEnd = useRef<HTMLDivElement>(null);

  // The chat runs while the page is open for a signed-in user.
  useEffect(() => (token && userId ? openChat(dispatch, userId) : undefined), [dispatch, token, userId]);

  // The newest message in view.
  const lastKey = `${kept.messages.length}:${outbox.length}:${supportTyping}`;
  useEffect(() => {
    listEnd.current?.scrollIntoView?.({ block: 'end' });
  }, [lastKey]);

  const offline = duty.data?.onDuty === false && kept.status !== 'open';
  const firstSeq = kept.messages[0]?.seq ?? 1;
  const empty = phase === 'ready' && kept.messages.length === 0 && outbox.length === 0;

  return (
    <div className="chat-page">
      <PageHeader title={t`Live chat`} />
      <section className="chat-log" aria-label={t`Conversation with support`} aria-live="polite" data-testid="chat-log">
        {firstSeq > 1 && !olderDone && (
          <button type="button" className="chat-older" onClick={() => dispatch(olderRequested())} disabled={loadingOlder}>
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
                  <button type="button" className="link-button" onClick={() => dispatch(retryAsked(entry.clientMessageId))}>{t`Retry`}</button>
                  <button type="button" className="link-button" onClick={() => dispatch(discardAsked(entry.clientMessageId))}>{t`Delete`}</button>
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
      {offline ? <OfflineForm onSent={(message) => dispatch(offlineFormSent(message))} /> : <Composer />}
    </div>
  );
}

/** The composer: a text (Enter sends, Shift+Enter breaks the line) or a photo, each queued in the outbox. */
function Composer() {
  const { t } = useLingui();
  const dispatch = useDispatch<ChatDispatch>();
  const [draft, setDraft] = useState('');
  const photo = useChatPhoto((fileId) => dispatch(messageQueued({ fileId })));

  const submitText = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return;
    setDraft('');
    dispatch(messageQueued({ text }));
  };

  const onDraft = (value: string) => {
    setDraft(value);
    if (value.trim()) dispatch(draftTyped());
  };

  return (
    <footer className="chat-composer">
      {photo.photo && (
        <div className="chat-photo-preview">
          <img src={photo.photo.url} alt={t`Photo to send`} />
          <button type="button" className="link-button" onClick={photo.remove}>{t`Remove`}</button>
          <button type="button" className="chat-send" data-testid="chat-photo-send" onClick={() => void photo.send()} disabled={photo.uploading}>
            {photo.uploading ? t`Sending…` : t`Send photo`}
          </button>
          {photo.error && <p className="chat-error" role="alert">{photo.error}</p>}
        </div>
      )}
      <form className="chat-form" onSubmit={submitText}>
        <label className="chat-attach" aria-label={t`Choose a photo`} title={t`Choose a photo`}>
          <input type="file" accept="image/jpeg,image/png,image/webp" data-testid="chat-photo-pick" onChange={(event) => photo.pick(event.target.files?.[0])} />
          <span aria-hidden="true">🖼</span>
        </label>
        <label className="chat-attach" aria-label={t`Take a photo`} title={t`Take a photo`}>
          <input type="file" accept="image/*" capture="environment" onChange={(event) => photo.pick(event.target.files?.[0])} />
          <span aria-hidden="true">📷</span>
        </label>
        <textarea className="chat-input" data-testid="chat-input" value={draft} rows={1} maxLength={2000} aria-label={t`Message`} placeholder={t`Write a message`}
          onChange={(event) => onDraft(event.target.value)}
          onKeyDown={(event) => { if (event.key === 'Enter' && !event.shiftKey) submitText(event); }} />
        <button type="submit" className="chat-send" data-testid="chat-send" disabled={!draft.trim()}>{t`Send`}</button>
      </form>
    </footer>
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
