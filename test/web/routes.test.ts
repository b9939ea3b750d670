// The route table of spec §2: every route with its login flag, background colour and place in or
// out of the tabbed layout. Only pages that are built (have `load`) are registered; the rest fall
// through to /home.
import { describe, expect, it } from 'vitest';
import { builtRoutes, defaultRedirect, loginPath, routeFor, routeTable } from '../../src/app/routes.ts';

/** Spec §2, in its order: route name and whether it needs login. */
const layoutRoutes: [string, boolean][] = [
  ['home', false], ['gerenziliao', true], ['shenfenRenzheng', true], ['shenfenRenzhengAd', true],
  ['renzhengResult', true], ['tuanduiYaoqing', true], ['zichanCenter', true], ['zhangbianRecord', true],
  ['hangqing', false], ['heyue', true], ['my', true], ['chongzhitixianRecord', true], ['chongzhi', true],
  ['tixian', true], ['chongzhitixianResult', true], ['jiesuanInfo', true], ['fuliCenter', true], ['vipLevel', true],
  ['jiedai', true], ['jiedaiHetong', true], ['jiedaiOrder', true], ['bisai', true], ['bisaiDetail', true],
  ['bisaiMycansai', true], ['taolilicai', true], ['taolilicaiDetail', true], ['taoliOk', true], ['taoliOrder', true],
  ['kuangchi', true], ['kuangchiDetail', true], ['zhaiquan', false], ['zhaiquanDetail', true], ['shandui', true],
  ['shanduiOrder', true], ['xinwen', false], ['articleList', false], ['articleDetail', false], ['ieo', true],
];
const topLevelRoutes = ['demotrading', 'kline', 'outlink', 'login'];

/**
 * Pages of ours the spec has no route for, each in the layout and behind login: the account
 * security centre (Google Authenticator, passkeys, linked logins, sessions; issue 11).
 */
const extensionRoutes = ['anquanZhongxin'];
/**
 * Screens spec §2 names without a route (issue 21): notices and help are public, a user's own
 * announcements and messages need login; all in the layout.
 */
const contentRoutes: [string, boolean][] = [
  ['notice', false], ['noticeDetail', false], ['announcements', true], ['messages', true], ['helpCentre', false], ['helpDetail', false],
  // The home shortcut "live chat": the support chat needs login.
  ['chat', true],
  // Push notification settings and price alerts (issue 21), from My and the chart's header.
  ['notificationSettings', true], ['priceAlerts', true],
  // The mining pool (issue 22; spec §2 names the screen, not its route), on the mining pages' slate.
  ['kuangchiPool', true],
];

const entry = (path: string) => routeTable.find((route) => route.path === path);

describe('route table', () => {
  it('has every route of the spec and, beyond them, only the listed pages of ours', () => {
    expect(routeTable.map((route) => route.path).sort())
      .toEqual([...layoutRoutes.map(([path]) => path), ...topLevelRoutes, ...extensionRoutes, ...contentRoutes.map(([path]) => path)].sort());
    expect(new Set(routeTable.map((route) => route.path)).size).toBe(routeTable.length);
  });

  it.each(layoutRoutes)('%s sits in the layout and needs login: %s', (path, login) => {
    expect(entry(path)).toMatchObject({ path, login, layout: true });
  });

  it.each(contentRoutes)('%s (ours, issue 21) sits in the layout and needs login: %s', (path, login) => {
    expect(entry(path)).toMatchObject({ path, login, layout: true });
  });

  it.each(extensionRoutes)('%s (ours) sits in the layout and needs login', (path) => {
    expect(entry(path)).toMatchObject({ path, login: true, layout: true });
  });

  it.each(topLevelRoutes)('%s is outside the layout and public', (path) => {
    expect(entry(path)).toMatchObject({ path, login: false, layout: false });
  });

  it('paints arbitrage dark blue, mining slate, and everything else white', () => {
    expect(entry('taolilicai')?.background).toBe('#031228');
    expect(entry('kuangchi')?.background).toBe('#2c3e50');
    expect(entry('kuangchiPool')?.background).toBe('#2c3e50');
    for (const route of routeTable.filter((route) => !['taolilicai', 'kuangchi', 'kuangchiPool'].includes(route.path))) {
      expect(route.background, route.path).toBe('#ffffff');
    }
  });

  it('puts home, market, contract and personal on the bottom tab bar', () => {
    const tabs = Object.fromEntries(routeTable.filter((route) => route.tab).map((route) => [route.tab, route.path]));
    expect(tabs).toEqual({ home: 'home', market: 'hangqing', contract: 'heyue', personal: 'my' });
  });

  it('gives every route in the layout a title message, and the pages outside it an empty title', () => {
    for (const route of routeTable) expect(Boolean(route.title.id), route.path).toBe(route.layout);
  });

  it('redirects to /home by default and logs in at /login', () => {
    expect(defaultRedirect).toBe('/home');
    expect(loginPath).toBe('/login');
    expect(entry(loginPath.slice(1))).toBeDefined();
    expect(entry(defaultRedirect.slice(1))).toBeDefined();
  });
});

describe('built routes', () => {
  it('are exactly the entries with page code to load', () => {
    expect(builtRoutes).toEqual(routeTable.filter((route) => typeof route.load === 'function'));
    for (const route of routeTable.filter((route) => !route.load)) expect(builtRoutes).not.toContain(route);
  });

  it('include the pages the app cannot start without', () => {
    const built = builtRoutes.map((route) => route.path);
    for (const path of ['home', 'login', 'outlink', 'my']) expect(built).toContain(path);
  });
});

describe('routeFor', () => {
  it('finds the entry of a path, with or without a query', () => {
    expect(routeFor('/home')?.path).toBe('home');
    expect(routeFor('/my?tab=assets')?.path).toBe('my');
    expect(routeFor('/outlink?url=https%3A%2F%2Fexample.com%2F')?.path).toBe('outlink');
    expect(routeFor('/login')?.path).toBe('login');
  });

  it('uses the first segment of a nested path', () => {
    expect(routeFor('/home/anything')?.path).toBe('home');
    expect(routeFor('home')?.path).toBe('home');
  });

  it('finds nothing for unknown paths, the root, or routes not built yet', () => {
    expect(routeFor('/')).toBeUndefined();
    expect(routeFor('/nowhere')).toBeUndefined();
    expect(routeFor('/Home')).toBeUndefined();
    for (const route of routeTable.filter((route) => !route.load)) expect(routeFor(`/${route.path}`), route.path).toBeUndefined();
  });
});

describe('market routes', () => {
  it('registers the market tab in the layout and the chart outside it, both public', () => {
    expect(routeFor('/hangqing?tab=crypto')).toMatchObject({ path: 'hangqing', tab: 'market', layout: true, login: false });
    expect(routeFor('/kline?symbol=BTCUSDT&period=1h')).toMatchObject({ path: 'kline', layout: false, login: false });
  });

  it('loads each market page with its texts', async () => {
    for (const path of ['hangqing', 'kline']) {
      const page = await routeFor(`/${path}`)!.load!();
      expect(typeof page.default, path).toBe('function');
      expect(typeof page.prepare, path).toBe('function');
    }
    // The chart page brings klinecharts, whose transform takes seconds on a busy machine.
  }, 60_000);
});
