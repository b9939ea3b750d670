import type { ReactNode } from 'react';
import { NavBar } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';

/** A page title bar with a back arrow (history back, or `fallback` when there is no history). */
export function PageHeader({ title, fallback = '/home', right }: { title: string; fallback?: string; right?: ReactNode }) {
  const navigate = useNavigate();
  const { t } = useLingui();
  return (
    <header className="page-header">
      <NavBar backIcon backArrow aria-label={t`Back`} right={right}
        onBack={() => (window.history.length > 1 ? navigate(-1) : navigate(fallback))}>
        <h1 className="page-title">{title}</h1>
      </NavBar>
    </header>
  );
}
