import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { useBack } from './useBack.ts';

/**
 * A page title bar with a back button (history back within the app, or `fallback`, the page's
 * parent, when the page was opened directly: see useBack).
 * Plain elements rather than antd-mobile's NavBar, whose back control is a nameless
 * role="button" that the keyboard cannot reach.
 */
export function PageHeader({ title, fallback = '/home', right }: { title: string; fallback?: string; right?: ReactNode }) {
  const back = useBack(fallback);
  const { t } = useLingui();
  return (
    <header className="page-header">
      <button type="button" className="page-back" aria-label={t`Back`} onClick={back}>
        <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round"
          strokeLinejoin="round" aria-hidden="true" focusable="false"><path d="M15 5l-7 7 7 7" /></svg>
      </button>
      <h1 className="page-title">{title}</h1>
      <div className="page-header-right">{right}</div>
    </header>
  );
}
