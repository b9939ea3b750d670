// messages: the signed-in user's internal messages (deposit credited, withdrawal paid, KYC decided,
// a take-profit hit...), each worded in the user's language from its kind and values. Tapping one
// marks it read and opens its page; "Mark all read" clears the badge at once.
import { useNavigate } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import type { UserMessage } from '../../api/contract/content.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';
import { useMyMessagesInfiniteQuery, useReadMessagesMutation } from '../../entities/content/contentApi.ts';
import { prepareContentTexts } from './contentTexts.ts';
import { wordMessage } from './messageTexts.ts';
import { cachedAtOf, ContentList, rowsOf } from './parts.tsx';
import './notices.css';

export const prepare = prepareContentTexts;

/** A message's route, if it is a page of this app ("/chongzhitixianRecord?tab=deposit"); never another site. */
export function appRouteOf(route: string | undefined): string | undefined {
  if (!route || !/^\/[A-Za-z]/.test(route) || /[\s\\]/.test(route)) return undefined;
  return route;
}

export default function MessagesPage() {
  const { t } = useLingui();
  const query = useMyMessagesInfiniteQuery();
  const [readMessages, reading] = useReadMessagesMutation();
  const items = rowsOf(query.data?.pages);
  const unread = query.data?.pages[0]?.value.unread ?? 0;
  // Above the list rather than in the header, whose side column is too narrow for it in any language.
  const markAll = items.length > 0 ? (
    <div className="messages-toolbar">
      <button type="button" className="link-button" disabled={unread === 0 || reading.isLoading}
        onClick={() => void readMessages({ all: true })}>{t`Mark all read`}</button>
    </div>
  ) : null;
  return (
    <div className="content-page">
      <PageHeader title={t`Messages`} fallback="/my" />
      {markAll}
      <ContentList query={query} count={items.length} cachedAtMs={cachedAtOf(query.data?.pages)}
        loadingLabel={t`Loading messages`} empty={t`You have no messages yet.`}>
        <ul className="content-rows" aria-label={t`Messages`}>
          {items.map((message) => <MessageRow key={message.id} message={message} onRead={(id) => void readMessages({ id })} />)}
        </ul>
      </ContentList>
    </div>
  );
}

function MessageRow({ message, onRead }: { message: UserMessage; onRead: (id: string) => void }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const words = wordMessage(i18n, message);
  const unread = message.readAt === undefined;
  const route = appRouteOf(message.route);
  const open = () => {
    if (unread) onRead(message.id);
    if (route) navigate(route);
  };
  return (
    <li className={`content-row message-row${unread ? ' unread' : ''}`} data-message-id={message.id} data-kind={message.kind}>
      <button type="button" className="content-row-link" onClick={open}>
        <span className="content-row-text">
          <span className="content-row-title">
            {unread && <span className="unread-dot" role="img" aria-label={t`Unread`} />}
            {words.title}
          </span>
          {words.body && <span className="content-row-summary">{words.body}</span>}
          {words.reason && <span className="content-row-summary">{t`Reason: ${words.reason}`}</span>}
          <time className="content-row-date" dateTime={isoOfEpochMs(message.createdAt)}>{formatEpochMs(message.createdAt)}</time>
        </span>
      </button>
    </li>
  );
}
