// Kept-alive pages (spec §2: /demotrading, /kline, /outlink and /login are kept alive). A route
// entry with `keepAlive: true` gives the router only an empty placeholder (KeptRouteSlot); Root
// renders the page itself here, beside its <Outlet/>. Once visited, the page stays mounted when
// the user leaves: its wrapper is hidden and inert, and it sits in a hidden <Activity>, so its
// effects (polling, socket subscriptions, timers) are cleaned up while it is away and set up
// again when it shows, while its state and its DOM (typed text, toggles) survive.
//
// Frozen location: each kept page reads react-router's LocationContext from here, holding the
// location it last had while it was on screen. While hidden it never sees another route's
// location, so useLocation and useSearchParams inside it keep returning its own address.
//
// Reopening: the address decides what shows. An address that names nothing new (it gives at
// least one search parameter, and each one equals what the page was left with) resumes the
// page as it was left, and the address bar is set back to the page's full address: a link to
// /kline?symbol=BTCUSDT reopens BTCUSDT's chart at the period the user chose. Any other address
// (another symbol, or no parameters at all, e.g. /login after /login?mode=register) reaches the
// same page instance as its new location: what the page derives from the address follows it,
// its own state stays.
//
// A kept page belongs to one session: when `session` changes (log in, log out) the kept pages
// off screen are dropped, and the one on screen is dropped once the user leaves it, so a
// password typed on /login does not outlive the login.
import { Activity, memo, useContext, useEffect, useState, type ComponentType, type ContextType } from 'react';
import { UNSAFE_LocationContext, useMatches, useNavigate, type Location } from 'react-router-dom';

type LocationContextValue = ContextType<typeof UNSAFE_LocationContext>;

/** The path of a kept route from its match handle (a route entry with `keepAlive: true`). */
export function keptPathOf(handle: unknown): string | null {
  if (!handle || typeof handle !== 'object') return null;
  const { keepAlive, path } = handle as { keepAlive?: unknown; path?: unknown };
  return keepAlive === true && typeof path === 'string' ? path : null;
}

interface KeptRecord {
  path: string;
  Page: ComponentType;
  /** The frozen location: the page's LocationContext, updated only while it is on screen. */
  context: LocationContextValue;
  session: string;
}

interface KeepAliveState {
  records: KeptRecord[];
  active: string | null;
  /** A reopening address being replaced by the page's own (`from`: that address's location key). */
  resume: { from: string; to: Location } | null;
}

const initialState: KeepAliveState = { records: [], active: null, resume: null };

/**
 * True when `next` reopens the page left at `left` without naming anything new: it gives at least
 * one search parameter, and `left` has each of them with the same value (and has more).
 */
export function resumesLeftPage(next: Location, left: Location): boolean {
  if (next.pathname !== left.pathname || next.search === left.search) return false;
  const given = [...new URLSearchParams(next.search)];
  if (given.length === 0) return false;
  const kept = new URLSearchParams(left.search);
  return given.every(([name, value]) => kept.getAll(name).includes(value));
}

/** The next state for the current route; returns `state` itself when nothing changes (render-safe). */
function advance(state: KeepAliveState, activePath: string | null, Page: ComponentType | undefined,
  context: LocationContextValue, session: string): KeepAliveState {
  let { records, active, resume } = state;
  const current = records.filter((record) => record.session === session || record.path === activePath);
  if (current.length !== records.length) records = current;
  const location = context.location;
  if (activePath === null || !Page) {
    active = null;
    resume = null;
  } else {
    const record = records.find((candidate) => candidate.path === activePath);
    const reopening = active !== activePath;
    if (!record) {
      records = [...records, { path: activePath, Page, context, session }];
    } else if (record.context !== context) {
      if (reopening && resumesLeftPage(location, record.context.location)) {
        resume = { from: location.key, to: record.context.location };
      } else if (resume?.from !== location.key) {
        records = records.map((candidate) => (candidate === record ? { ...record, context } : candidate));
      }
    }
    if (resume && resume.from !== location.key) resume = null;
    active = activePath;
  }
  return records === state.records && active === state.active && resume === state.resume
    ? state : { records, active, resume };
}

const KeptPage = memo(function KeptPage({ path, Page, context, active }: {
  path: string; Page: ComponentType; context: LocationContextValue; active: boolean;
}) {
  return (
    <div className="kept-page" data-kept-page={path} hidden={!active} inert={!active}
      style={{ display: active ? 'contents' : 'none' }}>
      <Activity mode={active ? 'visible' : 'hidden'}>
        <UNSAFE_LocationContext.Provider value={context}>
          <Page />
        </UNSAFE_LocationContext.Provider>
      </Activity>
    </div>
  );
});

/**
 * Every kept page visited so far, the current route's shown, the others hidden with their frozen
 * locations. `pages` holds the loaded page of each kept route; `session` drops kept pages of
 * another session (see above).
 */
export function KeepAlive({ pages, session = '' }: { pages: ReadonlyMap<string, ComponentType>; session?: string }) {
  const context = useContext(UNSAFE_LocationContext);
  const matches = useMatches();
  const activePath = keptPathOf(matches.at(-1)?.handle);
  const [state, setState] = useState(initialState);
  const next = advance(state, activePath, activePath === null ? undefined : pages.get(activePath), context, session);
  // Adjusting state while rendering (React's pattern for state derived from a changed input): the
  // page never renders once with a location that is not its own.
  if (next !== state) setState(next);

  const navigate = useNavigate();
  const resume = next.resume;
  useEffect(() => {
    if (!resume) return;
    const { pathname, search, hash, state: locationState } = resume.to;
    void navigate({ pathname, search, hash }, { replace: true, state: locationState });
  }, [resume, navigate]);

  return next.records.map((record) => (
    <KeptPage key={record.path} path={record.path} Page={record.Page} context={record.context}
      active={record.path === next.active} />
  ));
}
