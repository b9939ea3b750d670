// Pages "preloaded at start" without running them (DESIGN §3): the build's list of page files
// becomes low-priority hints, and a page module is evaluated only when a link to it is pressed,
// focused or pointed at, once per route.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hintPageFiles, preloadPages, warmRoute } from '../../src/app/pagePreload.ts';
import { routeFor } from '../../src/app/routes.ts';

function listFiles(files: unknown) {
  const list = document.createElement('script');
  list.type = 'application/json';
  list.id = 'page-files';
  list.textContent = JSON.stringify(files);
  document.body.append(list);
}

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('hintPageFiles', () => {
  it('adds a low-priority modulepreload for each script and a prefetch for each stylesheet', () => {
    listFiles(['/assets/MarketPage-abc.js', '/assets/MarketPage-def.css']);
    expect(hintPageFiles()).toBe(2);
    const links = [...document.head.querySelectorAll('link')];
    expect(links.map((link) => [link.rel, link.getAttribute('href'), link.getAttribute('fetchpriority')])).toEqual([
      ['modulepreload', '/assets/MarketPage-abc.js', 'low'],
      ['prefetch', '/assets/MarketPage-def.css', 'low'],
    ]);
  });

  it('ignores a missing or malformed list and anything that is not a path of this site', () => {
    expect(hintPageFiles()).toBe(0);
    listFiles({ not: 'a list' });
    expect(hintPageFiles()).toBe(0);
    document.body.innerHTML = '';
    listFiles(['https://elsewhere.example/x.js', 42, '/assets/ok.js']);
    expect(hintPageFiles()).toBe(1);
    expect(document.head.querySelectorAll('link')).toHaveLength(1);
  });
});

describe('evaluating a page when its route is near', () => {
  const stubLoad = (path: string) => {
    const entry = routeFor(path)!;
    return vi.spyOn(entry, 'load').mockResolvedValue({ default: () => null });
  };

  it('warmRoute loads a route\'s page once, and not for unknown routes', async () => {
    const load = stubLoad('/my');
    warmRoute('/my?panel=password');
    warmRoute('/my');
    warmRoute('/no-such-page');
    await Promise.resolve();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a press or focus on an in-app link loads its page; other links do nothing', async () => {
    const market = stubLoad('/hangqing');
    const login = stubLoad('/login');
    preloadPages({ precached: true });
    document.body.innerHTML = '<nav><a href="#/hangqing"><span>Market</span></a></nav>'
      + '<a href="#/login">Log in</a><a href="https://example.com/">Out</a>';
    document.querySelector('span')!.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    document.querySelector<HTMLAnchorElement>('a[href="https://example.com/"]')!.dispatchEvent(new Event('focusin', { bubbles: true }));
    expect(market).toHaveBeenCalledTimes(1);
    expect(login).not.toHaveBeenCalled();
    document.querySelector<HTMLAnchorElement>('a[href="#/login"]')!.dispatchEvent(new Event('focusin', { bubbles: true }));
    expect(login).toHaveBeenCalledTimes(1);
    // Nothing is hinted where the service worker precaches the files.
    expect(document.head.querySelectorAll('link')).toHaveLength(0);
  });
});
