// Spec §2 "pages are preloaded at start", the DESIGN §3 way: the first screen runs only its own
// code. Once it is drawn, every page's code is fetched and cached without being run (by the service
// worker's precache where there is a worker, otherwise through low-priority `modulepreload` hints
// for the files the build lists in index.html, #page-files), and a page's module is evaluated
// only when its route is near: a link to it (a tab of the tab bar, a row of a list) is pressed,
// focused or pointed at. The navigation itself follows at least one click later and shows the
// loading overlay for 300 ms anyway, which hides the evaluation.
import { routeFor } from './routes.ts';

type Idle = (work: () => void) => void;
const idle: Idle = (work) => {
  if ('requestIdleCallback' in window) requestIdleCallback(work, { timeout: 3000 });
  else setTimeout(work, 200);
};

const warmed = new Set<string>();

/** Loads (evaluates) the page module of a route and what it needs first (its texts), once. */
export function warmRoute(pathname: string): void {
  const entry = routeFor(pathname);
  if (!entry?.load || warmed.has(entry.path)) return;
  warmed.add(entry.path);
  void entry.load().then((page) => page.prepare?.()).catch(() => warmed.delete(entry.path));
}

/** The route an in-app link leads to (`#/market` → `/market`), if the node is or sits in one. */
function linkedRoute(node: EventTarget | null): string | undefined {
  const link = node instanceof Element ? node.closest('a[href^="#/"]') : null;
  return link?.getAttribute('href')?.slice(1);
}

/** Low-priority hints for the pages' files: fetched into the HTTP cache, not run. */
export function hintPageFiles(doc: Document = document): number {
  const listed = doc.getElementById('page-files')?.textContent;
  let files: unknown;
  try {
    files = JSON.parse(listed || '[]');
  } catch {
    return 0;
  }
  if (!Array.isArray(files)) return 0;
  let added = 0;
  for (const file of files) {
    if (typeof file !== 'string' || !file.startsWith('/')) continue;
    const link = doc.createElement('link');
    if (file.endsWith('.css')) {
      link.rel = 'prefetch';
      link.as = 'style';
    } else {
      link.rel = 'modulepreload';
      link.crossOrigin = '';
    }
    link.setAttribute('fetchpriority', 'low');
    link.href = file;
    doc.head.append(link);
    added += 1;
  }
  return added;
}

export interface PreloadOptions {
  /** Whether a service worker precaches the pages' files (then no hints are added). */
  precached?: boolean;
}

export function preloadPages({ precached = 'serviceWorker' in navigator && import.meta.env.PROD }: PreloadOptions = {}): void {
  const onIntent = (event: Event) => {
    const route = linkedRoute(event.target);
    if (route) warmRoute(route);
  };
  for (const type of ['pointerdown', 'focusin', 'mouseover']) {
    document.addEventListener(type, onIntent, { capture: true, passive: true });
  }
  if (!precached) idle(() => hintPageFiles());
}
