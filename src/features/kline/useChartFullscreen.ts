// The chart's full-screen mode (issue 8 #8, #12): the chart area fills the screen and, where the
// browser allows it, goes full screen and turns to landscape (Fullscreen API, then
// screen.orientation.lock, which Chromium grants only in full screen). Where neither exists
// (iPhone Safari) the area still fills the window, and the app may turn with the phone (the
// manifest allows any orientation). It is not rotated with CSS: klinecharts maps touches with
// getBoundingClientRect, which a rotated canvas would send to the wrong candles.
//
// The mode is an entry in the address (`view=full`, pushed), so the back button leaves it, as do
// Escape and the browser's own way out of full screen.
import { useCallback, useEffect, type RefObject } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';

export const fullViewParam = 'view';
const fullView = 'full';

interface FullState { chartFullscreen?: boolean }

type LockableOrientation = ScreenOrientation & { lock?: (orientation: string) => Promise<void> };

function lockLandscape() {
  const orientation = screen.orientation as LockableOrientation | undefined;
  // Refused outside full screen, on desktops and by some phones: the layout works either way.
  orientation?.lock?.('landscape').catch(() => undefined);
}

function unlockOrientation() {
  try {
    screen.orientation?.unlock();
  } catch {
    // Nothing was locked.
  }
}

export function useChartFullscreen(area: RefObject<HTMLElement | null>) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const full = params.get(fullViewParam) === fullView;
  const pushedHere = (location.state as FullState | null)?.chartFullscreen === true;

  const enter = useCallback(() => {
    const next = new URLSearchParams(params);
    next.set(fullViewParam, fullView);
    setParams(next, { state: { chartFullscreen: true } satisfies FullState });
    const element = area.current;
    // Asked for in the tap itself: browsers grant full screen only on a user gesture.
    if (element?.requestFullscreen && !document.fullscreenElement) {
      element.requestFullscreen({ navigationUI: 'hide' }).then(lockLandscape, () => undefined);
    }
  }, [area, params, setParams]);

  const leave = useCallback(() => {
    // Back over the entry `enter` pushed; an address opened as it is loses its parameter in place.
    if (pushedHere) {
      void navigate(-1);
      return;
    }
    const next = new URLSearchParams(params);
    next.delete(fullViewParam);
    setParams(next, { replace: true });
  }, [navigate, params, pushedHere, setParams]);

  // Out of the mode (by any way): out of the browser's full screen and the orientation lock too.
  useEffect(() => {
    if (full) return;
    if (document.fullscreenElement && document.fullscreenElement === area.current) void document.exitFullscreen().catch(() => undefined);
    unlockOrientation();
  }, [area, full]);

  // Escape, and the browser leaving full screen (its own Escape, the phone's back), leave the mode,
  // once: an Escape that also ends the browser's full screen must not go back twice.
  useEffect(() => {
    if (!full) return undefined;
    let wasFullscreen = document.fullscreenElement === area.current;
    let left = false;
    const leaveOnce = () => {
      if (left) return;
      left = true;
      leave();
    };
    const onFullscreenChange = () => {
      if (document.fullscreenElement === area.current) wasFullscreen = true;
      else if (wasFullscreen) leaveOnce();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') leaveOnce();
    };
    document.addEventListener('fullscreenchange', onFullscreenChange);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('fullscreenchange', onFullscreenChange);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [area, full, leave]);

  return { full, enter, leave };
}
