// In-app back (spec §2): back through the app's own history when there is some, otherwise to the
// page's parent, so that a page opened from a link or a bookmark (nothing of the app behind it)
// does not leave the app. `window.history.length` cannot tell: it counts the other sites of the
// tab too. React Router's browser and hash histories number their entries in history.state.idx,
// 0 for the entry the app was opened on; a reload keeps the numbers.
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';

/** True when the current entry has an entry of this app before it. */
export function hasInAppHistory(): boolean {
  const state = window.history.state as { idx?: unknown } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/** A back action: history back within the app, or `parent` in place of the current entry. */
export function useBack(parent = '/home'): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    if (hasInAppHistory()) void navigate(-1);
    else void navigate(parent, { replace: true });
  }, [navigate, parent]);
}
