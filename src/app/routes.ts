// The route table of spec §2 as data: path, title, login flag, background, and whether the page
// sits in the tabbed layout. Only entries with a `load` are registered: a feature that is not
// built yet has no route at all, and its path falls through to /home (DESIGN §1).
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { ComponentType } from 'react';
import type { PageName } from './pages.ts';

export interface PageModule { default: ComponentType; prepare?: () => Promise<void> }

export interface RouteEntry {
  path: string;
  title: MessageDescriptor;
  login: boolean;
  background: string;
  layout: boolean;
  /** Tab of the bottom bar this page is, if any. */
  tab?: 'home' | 'market' | 'contract' | 'personal';
  /**
   * Kept alive (spec §2): once visited, the page stays mounted, hidden, while the user is
   * elsewhere, and shows again with its state (app/KeepAlive.tsx).
   */
  keepAlive?: boolean;
  /** The page module; `prepare`, when present, loads what the page needs first (its texts). */
  load?: () => Promise<PageModule>;
}

/**
 * Every page but home is imported from app/pages.ts, a chunk of its own fetched after the first
 * screen: the pages' imports, and the list of stylesheets each of them brings, would otherwise
 * sit in the first screen's code and grow with every page (DESIGN §8 budget).
 */
const later = (name: PageName): RouteEntry['load'] => () => import('./pages.ts').then((module): Promise<PageModule> => module.pages[name]());

const white = '#ffffff';
/** The title of the pages outside the layout (spec §2: empty); the document shows the app's name. */
const noTitle: MessageDescriptor = { id: '' };
const page = (path: string, title: MessageDescriptor, login: boolean, extra: Partial<RouteEntry> = {}): RouteEntry =>
  ({ path, title, login, background: white, layout: true, ...extra });

export const routeTable: RouteEntry[] = [
  page('home', msg`Home`, false, { tab: 'home', load: () => import('../features/home/HomePage.tsx').then((home) => {
    home.provideHomeNotices(() => import('./pages.ts').then((module) => module.loadHomeNotices()));
    home.provideBalanceCard(() => import('../features/wallet/HomeBalanceCard.tsx').then(async (card) => {
      await card.prepare();
      return card;
    }));
    return home;
  }) }),
  page('gerenziliao', msg`Personal data`, true, { load: later('gerenziliao') }),
  page('shenfenRenzheng', msg`Identity verification`, true, { load: later('shenfenRenzheng') }),
  page('shenfenRenzhengAd', msg`Advanced identity verification`, true, { load: later('shenfenRenzhengAd') }),
  page('renzhengResult', msg`Verification result`, true, { load: later('renzhengResult') }),
  // Ours (not in spec §2): Google Authenticator, passkeys, linked wallets and providers, sessions, login history.
  page('anquanZhongxin', msg`Account security`, true, { load: later('anquanZhongxin') }),
  page('tuanduiYaoqing', msg`Team invitation`, true, { load: later('tuanduiYaoqing') }),
  page('zichanCenter', msg`Asset centre`, true, { load: later('zichanCenter') }),
  page('zhangbianRecord', msg`Account ledger records`, true, { load: later('zhangbianRecord') }),
  page('hangqing', msg`Market`, false, { tab: 'market', load: later('hangqing') }),
  page('heyue', msg`Contracts`, true, { tab: 'contract', load: later('heyue') }),
  page('my', msg`My`, true, { tab: 'personal', load: later('my') }),
  page('chongzhitixianRecord', msg`Deposit and withdrawal records`, true, { load: later('chongzhitixianRecord') }),
  page('chongzhi', msg`Deposit`, true, { load: later('chongzhi') }),
  page('tixian', msg`Withdrawal`, true, { load: later('tixian') }),
  page('chongzhitixianResult', msg`Deposit or withdrawal result`, true, { load: later('chongzhitixianResult') }),
  page('jiesuanInfo', msg`Settlement info`, true, { load: later('jiesuanInfo') }),
  page('fuliCenter', msg`Welfare centre`, true, { load: later('fuliCenter') }),
  page('vipLevel', msg`VIP level`, true, { load: later('vipLevel') }),
  page('jiedai', msg`Lending`, true, { load: later('jiedai') }),
  page('jiedaiHetong', msg`Loan agreement`, true, { load: later('jiedaiHetong') }),
  page('jiedaiOrder', msg`Loan orders`, true, { load: later('jiedaiOrder') }),
  page('bisai', msg`Competitions`, true, { load: later('bisai') }),
  page('bisaiDetail', msg`Competition detail`, true, { load: later('bisaiDetail') }),
  page('bisaiMycansai', msg`My competition entries`, true, { load: later('bisaiMycansai') }),
  page('taolilicai', msg`Arbitrage`, true, { background: '#031228', load: later('taolilicai') }),
  page('taolilicaiDetail', msg`Arbitrage detail`, true, { load: later('taolilicaiDetail') }),
  page('taoliOk', msg`Arbitrage confirmation`, true, { load: later('taoliOk') }),
  page('taoliOrder', msg`Arbitrage orders`, true, { load: later('taoliOrder') }),
  page('kuangchi', msg`Mining`, true, { background: '#2c3e50', load: later('kuangchi') }),
  page('kuangchiDetail', msg`Mining detail`, true, { load: later('kuangchiDetail') }),
  // Ours (spec §2 names the screen "mining pool", not its route): the mining pool's totals.
  page('kuangchiPool', msg`Mining pool`, true, { background: '#2c3e50', load: later('kuangchiPool') }),
  page('zhaiquan', msg`Bonds`, false, { load: later('zhaiquan') }),
  page('zhaiquanDetail', msg`Bond detail`, true, { load: later('zhaiquanDetail') }),
  page('shandui', msg`Flash swap`, true, { load: later('shandui') }),
  page('shanduiOrder', msg`Flash swap orders`, true, { load: later('shanduiOrder') }),
  page('xinwen', msg`News`, false, { load: later('xinwen') }),
  page('articleList', msg`Articles`, false, { load: later('articleList') }),
  page('articleDetail', msg`Article`, false, { load: later('articleDetail') }),
  // Ours (spec §2 names the screens, not their routes): notices, announcements, internal messages, help centre.
  page('notice', msg`Platform notices`, false, { load: later('notice') }),
  page('noticeDetail', msg`Notice`, false, { load: later('noticeDetail') }),
  page('announcements', msg`Announcements`, true, { load: later('announcements') }),
  page('messages', msg`Messages`, true, { load: later('messages') }),
  page('helpCentre', msg`Help centre`, false, { load: later('helpCentre') }),
  page('helpDetail', msg`Help article`, false, { load: later('helpDetail') }),
  page('ieo', msg`Token offering`, true, { load: later('ieo') }),
  // Ours (issue 21): push notifications on this device and their categories, and price alerts.
  page('notificationSettings', msg`Notifications`, true, { load: later('notificationSettings') }),
  page('priceAlerts', msg`Price alerts`, true, { load: later('priceAlerts') }),
  // Ours (spec §2 names the home shortcut "live chat"): the support chat (issue 21).
  page('chat', msg`Live chat`, true, { load: later('chat') }),
  // Outside the layout: empty title, kept alive.
  page('demotrading', noTitle, false, { layout: false, keepAlive: true, load: later('demotrading') }),
  page('kline', noTitle, false, { layout: false, keepAlive: true, load: later('kline') }),
  page('outlink', noTitle, false, { layout: false, keepAlive: true, load: later('outlink') }),
  page('login', noTitle, false, { layout: false, keepAlive: true, load: later('login') }),
];

export const defaultRedirect = '/home';
export const loginPath = '/login';

export const builtRoutes = routeTable.filter((entry) => entry.load);

export function routeFor(pathname: string): RouteEntry | undefined {
  const name = pathname.replace(/^\/+/, '').split(/[/?]/)[0];
  return builtRoutes.find((entry) => entry.path === name);
}
