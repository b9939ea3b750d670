// Home's notice pieces, loaded after the first screen (features/home/later.ts): the strip that
// shows the newest notices' titles one after another (still when the user asks for reduced motion,
// and while it is hovered or focused), the bell with the unread count, and the pop-up of the first
// unread pop-up announcement, shown once at start to a signed-in user and marked read on close.
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useSelector } from 'react-redux';
import { useLingui } from '@lingui/react/macro';
import type { ContentItem } from '../../api/contract/content.ts';
import type { UserState } from '../../entities/session/userSlice.ts';
import { readSession, writeSession } from '../../lib/storage.ts';
import { useReducedMotion } from '../../lib/reducedMotion.ts';
import {
  unreadPollMs, useHomeNoticesQuery, useMyAnnouncementsQuery, useNoticeByIdQuery, useReadAnnouncementMutation, useUnreadQuery,
} from '../../entities/content/contentApi.ts';
import { NoticeIcon } from '../../components/icons.tsx';
import { badgeText } from './unreadBadge.ts';
import './homeNotices.css';

/** How long each title stays before the next one slides in. */
export const titleStayMs = 4000;
/** At most this many titles run in the strip. */
export const stripTitlesMax = 10;

const useSignedIn = () => useSelector((state: { user: UserState }) => Boolean(state.user.token));

export function HomeNoticeStrip() {
  const { t } = useLingui();
  const query = useHomeNoticesQuery(undefined, { refetchOnFocus: true });
  const notices = (query.data?.value ?? []).slice(0, stripTitlesMax);
  const still = useReducedMotion();
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (still || paused || notices.length < 2) return undefined;
    const timer = setInterval(() => setIndex((current) => (current + 1) % notices.length), titleStayMs);
    return () => clearInterval(timer);
  }, [still, paused, notices.length]);
  // Its place stays taken while the titles load, so the shortcuts below do not jump (CLS).
  if (query.isLoading) return <div className="notice-strip-placeholder" />;
  if (notices.length === 0) return null;
  const shown = index % notices.length;
  return (
    <section className="notice-strip" aria-label={t`Platform notices`} onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)} onFocus={() => setPaused(true)} onBlur={() => setPaused(false)}>
      <span className="notice-strip-icon" aria-hidden="true"><NoticeIcon /></span>
      <div className="notice-strip-window">
        <ul className="notice-strip-titles" style={{ transform: `translateY(${(-shown * 100) / notices.length}%)` }} data-still={still || undefined}>
          {notices.map((notice, position) => (
            <li key={notice.id} aria-hidden={position !== shown || undefined}>
              <Link to={`/noticeDetail?id=${notice.id}`} tabIndex={position === shown ? 0 : -1} data-notice-id={notice.id}>{notice.title}</Link>
            </li>
          ))}
        </ul>
      </div>
      <Link to="/notice" className="notice-strip-more">{t`More`}</Link>
    </section>
  );
}


export function HomeBell() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const { data } = useUnreadQuery(undefined, { skip: !signedIn, pollingInterval: unreadPollMs, refetchOnFocus: true });
  if (!signedIn) return null;
  const count = data?.messages ?? 0;
  return (
    <button type="button" className="icon-button home-bell" onClick={() => navigate('/messages')}
      aria-label={count > 0 ? t`Messages, ${count} unread` : t`Messages`}>
      <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round"
        strokeLinejoin="round" aria-hidden="true" focusable="false"><path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" /><path d="M10 20a2 2 0 0 0 4 0" /></svg>
      {count > 0 && <span className="home-bell-badge" aria-hidden="true">{badgeText(count)}</span>}
    </button>
  );
}

const shownPopupsKey = 'shownPopupAnnouncements';

/** The announcement to pop up: the first unread one marked pop-up, unless it was shown this session. */
export function popupOf(items: readonly ContentItem[], shownIds: readonly string[]): ContentItem | undefined {
  return items.find((item) => item.popup && item.readAt === undefined && !shownIds.includes(item.id));
}

const shownIds = (): string[] => (readSession(shownPopupsKey) ?? '').split(',').filter(Boolean);

/** The pop-up's view (antd-mobile's popup and the rich text), loaded only when one is to show. */
const AnnouncementPopupView = lazy(() => import('./AnnouncementPopupView.tsx'));

export function AnnouncementPopup() {
  const signedIn = useSignedIn();
  const list = useMyAnnouncementsQuery(undefined, { skip: !signedIn });
  const [closed, setClosed] = useState<string[]>([]);
  const candidate = list.data && !list.data.cachedAtMs ? popupOf(list.data.value, [...shownIds(), ...closed]) : undefined;
  const full = useNoticeByIdQuery(candidate?.id ?? '', { skip: !candidate || candidate.bodyHtml !== undefined });
  const [readAnnouncement] = useReadAnnouncementMutation();
  // Once the announcements are read and none is to pop up, a mark says so (the journeys wait for it).
  if (!candidate) return list.data ? <span hidden data-testid="popup-checked" /> : null;
  const close = () => {
    writeSession(shownPopupsKey, [...shownIds(), candidate.id].slice(-50).join(','));
    setClosed((ids) => [...ids, candidate.id]);
    void readAnnouncement({ id: candidate.id });
  };
  return (
    <Suspense fallback={null}>
      <AnnouncementPopupView announcement={candidate} body={candidate.bodyHtml ?? full.data?.value.bodyHtml} onClose={close} />
    </Suspense>
  );
}

/** The strip and, for a signed-in user, the pop-up (one lazy piece of home). */
export default function HomeNotices() {
  return (
    <>
      <HomeNoticeStrip />
      <AnnouncementPopup />
    </>
  );
}

export { prepareContentTexts as prepare } from './contentTexts.ts';
