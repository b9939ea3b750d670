// Home: the account card (log in / register, or the user's greeting), the balance card once logged in,
// the install card once the visitor is engaged, shortcuts to what is built, and the market card (rankings). Shortcuts for
// features not built yet are not shown (DESIGN §1); a visitor's lead to the market, the chart and
// logging in, a user's to deposit, options and swap (spec §2 home shortcuts; personal data and the
// password stay on /my).
import { lazy, Suspense, useState, type ComponentType } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSelector } from 'react-redux';
import { CandlesIcon, ChartIcon, ChatIcon, DepositIcon, GlobeIcon, NoticeIcon, SwapIcon, TimerIcon, UserIcon } from '../../components/icons.tsx';
import { useLingui } from '@lingui/react/macro';
import type { UserState } from '../../entities/session/userSlice.ts';
import { BondIcon, InvestIcon, LoanIcon, MiningIcon, QuantIcon } from './investIcons.tsx';
import { afterFirstPaint } from '../../lib/firstPaint.ts';
import { BrandMark } from '../../components/BrandMark.tsx';

// The picker (a popup with animation) loads when first opened, and the install card (lib/install.ts:
// after engagement, dismissible) once the browser is idle, both through ./later.ts, keeping them
// off the first screen.
// Nothing of ./later.ts is on the first frame: it is fetched once that has painted, so its
// download does not sit among what the first paint waits for (lib/firstPaint.ts).
const later = () => afterFirstPaint().then(() => import('./later.ts'));
const LanguagePicker = lazy(() => later().then((module) => module.loadLanguagePicker()));
const InstallOffer = lazy(() => later().then((module) => module.loadInstallOffer()));
// The notice strip (with the start-up pop-up) and the bell are the notices feature's: the app
// hands their loader in (app/routes.ts), and they load once the browser is idle.
let loadNotices: (() => Promise<import('./later.ts').HomeNoticesModule>) | undefined;
export function provideHomeNotices(load: () => Promise<import('./later.ts').HomeNoticesModule>) {
  loadNotices = load;
}
const HomeNotices = lazy(() => later().then((module) => module.loadHomeNotices(loadNotices)).then((module) => ({ default: module.default })));
const HomeBell = lazy(() => later().then((module) => module.loadHomeNotices(loadNotices)).then((module) => ({ default: module.HomeBell })));
// The balance card, logged in only, likewise (with the wallet's texts).
type CardModule = { default: ComponentType };
let loadBalanceCard: (() => Promise<CardModule>) | undefined;
/**
 * The balance card (logged in only, with the wallet's texts) is the wallet's: the app hands its
 * loader in (app/routes.ts), as a feature imports no other feature.
 */
export function provideBalanceCard(load: () => Promise<CardModule>) {
  loadBalanceCard = load;
}
const HomeBalanceCard = lazy(() => loadBalanceCard?.() ?? Promise.resolve({ default: () => null }));
// The market card brings the market API, the socket and its rows: it loads right after the first
// screen instead of with it (DESIGN §8 budget), once that has painted. Its place is reserved so
// nothing jumps.
const HomeMarkets = lazy(() => afterFirstPaint().then(() => import('./HomeMarkets.tsx')).then(async (module) => {
  await module.prepare();
  return module;
}));

export default function HomePage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const user = useSelector((state: { user: UserState }) => state.user.userInfo);
  const [languageOpen, setLanguageOpen] = useState(false);
  const loggedIn = Boolean(user.id);
  // An account made by a wallet or provider login may have no e-mail or phone: its number then.
  const name = user.firstName || user.account || `#${user.id}`;

  // A first session is greeted, not welcomed back (loginCount: logins including this one).
  const greet = (displayName: string) => (user.loginCount === 1 ? t`Welcome, ${displayName}` : t`Welcome back, ${displayName}`);
  // On one line, a long name is cut, never the words around it (before or after the name,
  // depending on the language): the message is split where the name goes.
  const [beforeName, afterName] = greet('\0').split('\0');

  const shortcuts = [
    ...(loggedIn ? [
      { key: 'deposit', label: t`Deposit`, icon: <DepositIcon />, onClick: () => navigate('/chongzhi') },
      { key: 'options', label: t`Options`, icon: <TimerIcon />, onClick: () => navigate('/heyue?mode=options') },
      { key: 'swap', label: t`Swap`, icon: <SwapIcon />, onClick: () => navigate('/shandui') },
    ] : [
      { key: 'market', label: t`Market`, icon: <ChartIcon />, onClick: () => navigate('/hangqing') },
      { key: 'chart', label: t`BTC chart`, icon: <CandlesIcon />, onClick: () => navigate('/kline') },
      { key: 'login', label: t`Log in`, icon: <UserIcon />, onClick: () => navigate('/login') },
    ]),
    // Investment products (issue 22): pages that need login send a visitor to /login first.
    { key: 'invest', label: t`Investment`, icon: <InvestIcon />, onClick: () => navigate('/taolilicai?type=arbitrage') },
    { key: 'quant', label: t`AI quantitative`, icon: <QuantIcon />, onClick: () => navigate('/taolilicai?type=quant') },
    { key: 'mining', label: t`Mining`, icon: <MiningIcon />, onClick: () => navigate('/kuangchi') },
    { key: 'debt', label: t`Debt`, icon: <BondIcon />, onClick: () => navigate('/zhaiquan') },
    { key: 'loan', label: t`Loan`, icon: <LoanIcon />, onClick: () => navigate('/jiedai') },
    { key: 'notice', label: t`Platform notice`, icon: <NoticeIcon />, onClick: () => navigate('/notice') },
    { key: 'chat', label: t`Live chat`, icon: <ChatIcon />, onClick: () => navigate('/chat') },
    { key: 'language', label: t`Language`, icon: <GlobeIcon />, onClick: () => setLanguageOpen(true) },
  ];

  return (
    <div className="home">
      <header className="home-header">
        <div className="home-brand">
          <BrandMark />
          <span>Bourse</span>
        </div>
        <div className="home-header-actions">
          {loggedIn && <Suspense fallback={null}><HomeBell /></Suspense>}
          <button type="button" className="icon-button" aria-label={t`Language`} onClick={() => setLanguageOpen(true)}>
            <GlobeIcon />
          </button>
        </div>
      </header>

      <section className="home-hero" aria-labelledby="home-hero-title">
        {loggedIn ? (
          <>
            <h1 id="home-hero-title" className="home-greeting" title={greet(name)}>
              {beforeName}<span>{name}</span>{afterName}
            </h1>
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

      {loggedIn && (
        <Suspense fallback={<div className="home-balance-placeholder" />}>
          <HomeBalanceCard />
        </Suspense>
      )}

      <Suspense fallback={null}>
        <InstallOffer />
      </Suspense>

      <Suspense fallback={<div className="notice-strip-placeholder" />}>
        <HomeNotices />
      </Suspense>

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
