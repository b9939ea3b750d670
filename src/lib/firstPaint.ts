// The first screen's first paint, as one promise: work the first frame does not show (antd-mobile's
// texts, the home page's lazily loaded cards, the background chunks) starts once it has painted,
// so that neither its downloads nor its evaluation stand between the page's HTML and its first
// frame on a slow phone (DESIGN §3, §8). Each caller goes on in a task of its own: resolved in one
// microtask checkpoint, the imports they start (with their preload links) added up to one long
// task right after the paint.

/** How long to wait for a paint the browser may never report (a page opened in a hidden tab). */
export const firstPaintWaitMaxMs = 3000;

let painted: Promise<void> | undefined;

function watchFirstPaint(): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, firstPaintWaitMaxMs);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    // Without paint timing there is no paint to wait for.
    if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) return done();
    try {
      if (performance.getEntriesByName('first-contentful-paint').length > 0) return done();
      new PerformanceObserver((entries, observer) => {
        if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
        observer.disconnect();
        done();
      }).observe({ type: 'paint', buffered: true });
    } catch {
      done();
    }
  });
}

/**
 * Resolves, in a task of its own, once the document has had its first contentful paint (or after
 * `firstPaintWaitMaxMs`); asked after that paint, in the next task.
 */
export function afterFirstPaint(): Promise<void> {
  painted ??= watchFirstPaint();
  return painted.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}

/** For tests: forget the paint seen, so the next call watches again. */
export function resetFirstPaintForTests() {
  painted = undefined;
}
