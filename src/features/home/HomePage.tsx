// Home: the account card (log in / register, or the user's greeting), shortcuts to what is
// built, and the market card (rankings). Shortcuts for features not built yet are not shown
// (DESIGN §1).
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSelector } from 'react-redux';
import { GlobeIcon, IdCardIcon, LockIcon, UserIcon } from '../../components/icons.tsx';
import { useLingui } from '@lingui/react/macro';
import type { UserState } from '../auth/userSlice.ts';

// The picker (a popup with animation) loads when first opened, keeping it off the first screen.
const LanguagePicker = lazy(() => import('../../components/LanguagePicker.tsx').then((module) => ({ default: module.LanguagePicker })));
// The market card brings the market API, the socket and its rows: it loads right after the first
// screen instead of with it (DESIGN §8 budget). Its place is reserved so nothing jumps.
const HomeMarkets = lazy(() => import('../market/HomeMarkets.tsx').then(async (module) => {
  await module.prepare();
  return module;
}));

export default function HomePage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const user = useSelector((state: { user: UserState }) => state.user.userInfo);
  const [languageOpen, setLanguageOpen] = useState(false);
  const loggedIn = Boolean(user.id);
  const displayName = user.firstName ?? user.account ?? '';

  const shortcuts = [
    { key: 'profile', label: t`Personal data`, icon: <IdCardIcon />, onClick: () => navigate('/gerenziliao') },
    { key: 'security', label: t`Change password`, icon: <LockIcon />, onClick: () => navigate('/my?panel=password') },
    { key: 'my', label: t`My`, icon: <UserIcon />, onClick: () => navigate('/my') },
    { key: 'language', label: t`Language`, icon: <GlobeIcon />, onClick: () => setLanguageOpen(true) },
  ];

  return (
    <div className="home">
      <header className="home-header">
        <div className="home-brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Bourse</span>
        </div>
        <button type="button" className="icon-button" aria-label={t`Language`} onClick={() => setLanguageOpen(true)}>
          <GlobeIcon />
        </button>
      </header>

      <section className="home-hero" aria-labelledby="home-hero-title">
        {loggedIn ? (
          <>
            <h1 id="home-hero-title">{t`Welcome back, ${displayName}`}</h1>
            <p>{t`Crypto, gold and forex, in your pocket.`}</p>
          </>
        ) : (
          <>
            <h1 id="home-hero-title">{t`Trade crypto, gold and forex`}</h1>
            <p>{t`Create an account in a minute, or look around as a guest.`}</p>
            <div className="home-hero-actions">
              <button type="button" className="hero-button primary" onClick={() => navigate('/login?mode=register')}>{t`Register`}</button>
              <button type="button" className="hero-button outline" onClick={() => navigate('/login')}>{t`Log in`}</button>
            </div>
          </>
        )}
      </section>

      <section aria-label={t`Shortcuts`} className="home-shortcuts">
        <ul className="shortcut-grid">
          {shortcuts.map((shortcut) => (
            <li key={shortcut.key}>
              <button type="button" className="shortcut" onClick={shortcut.onClick}>
                <span className="shortcut-icon" aria-hidden="true">{shortcut.icon}</span>
                <span className="shortcut-label">{shortcut.label}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>

      <Suspense fallback={<div className="home-markets-placeholder" />}>
        <HomeMarkets />
      </Suspense>

      <section className="home-note" aria-label={t`About`}>
        <h2>{t`Honest by construction`}</h2>
        <p>{t`Prices come only from the market feed, every settlement keeps the prices it used, and demo funds never mix with real ones.`}</p>
      </section>
      {languageOpen && (
        <Suspense fallback={null}>
          <LanguagePicker visible onClose={() => setLanguageOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
