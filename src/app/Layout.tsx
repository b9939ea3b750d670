// The tabbed layout: page content above the bottom tab bar (home, market, contract, personal).
// A tab appears only when its page is built. Tabs are real links, so they are reachable by
// keyboard and announced with the current page.
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { ChartIcon, ContractIcon, HomeIcon, UserIcon } from '../components/icons.tsx';
import { useLingui } from '@lingui/react/macro';
import { builtRoutes, routeFor } from './routes.ts';
import { useSelector } from 'react-redux';
import { badgeText, selectUnreadMessages } from '../features/notices/unreadBadge.ts';

const tabIcons = { home: <HomeIcon />, market: <ChartIcon />, contract: <ContractIcon />, personal: <UserIcon /> };

export function Layout() {
  const location = useLocation();
  const { t, i18n } = useLingui();
  const tabs = builtRoutes.filter((entry) => entry.tab);
  // Unread internal messages, on the My tab (issue 21).
  const unread = useSelector(selectUnreadMessages);
  // The default white is the theme's surface (styles.css), dark in the dark theme.
  const background = routeFor(location.pathname)?.background;
  return (
    <div className="layout" style={background === '#ffffff' ? undefined : { background }}>
      <main className="layout-main">
        <Outlet />
      </main>
      <nav className="layout-tabs" aria-label={t`Main navigation`}>
        <ul>
          {tabs.map((entry) => (
            <li key={entry.path}>
              <NavLink to={`/${entry.path}`} className={({ isActive }) => `tab-link${isActive ? ' active' : ''}`}>
                <span className="tab-icon" aria-hidden="true">{tabIcons[entry.tab!]}</span>
                <span className="tab-title">{i18n._(entry.title)}</span>
                {entry.tab === 'personal' && unread > 0 && (
                  <span className="tab-badge" role="status" aria-label={t`${unread} unread messages`}>{badgeText(unread)}</span>
                )}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
