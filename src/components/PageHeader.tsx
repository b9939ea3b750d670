import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';

/**
 * A page title bar with a back button (history back, or `fallback` when there is no history).
 * Plain elements rather than antd-mobile's NavBar, whose back control is a nameless
 * role="button" that the keyboard cannot reach.
 */
export function PageHeader({ title, fallback = '/home', right }: { title: string; fallback?: string; right?: ReactNode }) {
  const navigate = useNavigate();
  const { t } = useLingui();
  return (
    <header className="page-header">
      <button type="button" className="page-back" aria-label={t`Back`}
        onClick={() => (window.history.length > 1 ? navigate(-1) : navigate(fallback))}>
        <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round"
          strokeLinejoin="round" aria-hidden="true" focusable="false"><path d="M15 5l-7 7 7 7" /></svg>
      </button>
      <h1 className="page-title">{title}</h1>
      <div className="page-header-right">{right}</div>
    </header>
  );
}
