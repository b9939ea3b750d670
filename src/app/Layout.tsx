// The tabbed layout: page content above the bottom tab bar (home, market, contract, personal).
// A tab appears only when its page is built.
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { TabBar } from 'antd-mobile';
import { AppOutline, HistogramOutline, UserOutline, FileOutline } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { builtRoutes, routeFor } from './routes.ts';

const tabIcons = { home: <AppOutline />, market: <HistogramOutline />, contract: <FileOutline />, personal: <UserOutline /> };

export function Layout() {
  const location = useLocation();
  const navigate = useNavigate();
  const { t, i18n } = useLingui();
  const tabs = builtRoutes.filter((entry) => entry.tab);
  const current = routeFor(location.pathname);
  const background = current?.background ?? '#ffffff';
  return (
    <div className="layout" style={{ background }}>
      <main className="layout-main">
        <Outlet />
      </main>
      <nav className="layout-tabs" aria-label={t`Main navigation`}>
        <TabBar safeArea activeKey={current?.tab ? current.path : null} onChange={(key) => navigate(`/${key}`)}>
          {tabs.map((entry) => (
            <TabBar.Item key={entry.path} icon={tabIcons[entry.tab!]} title={i18n._(entry.title)} />
          ))}
        </TabBar>
      </nav>
    </div>
  );
}
