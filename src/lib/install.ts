// Installation to the home screen. Chromium's own install prompt (beforeinstallprompt) is kept
// rather than shown at once, so the app offers it at a better moment: in the personal centre's
// "Install app" and in the home page's install card, which appears once the visitor is engaged
// (logged in or not) and stays away for two weeks when dismissed. iOS Safari has no install
// prompt: there the card explains Share → Add to Home Screen instead.
//
// Engagement: the second visit (a visit is one browser tab's session), or one minute into the
// first one. A first glance is not asked to install anything.
import { readLocal, readSession, writeLocal, writeSession } from './storage.ts';

/** Kept here rather than in storage.ts's list, which the first screen loads. */
export const installKeys = {
  /** localStorage: how many visits this browser has made. */
  visits: 'installVisits',
  /** sessionStorage: when this tab's visit started (ms). */
  visitStartedAt: 'installVisitStartedAt',
  /** localStorage: when the install card was last dismissed (ms). */
  dismissedAt: 'installDismissedAt',
} as const;

interface InstallPromptEvent extends Event { prompt(): Promise<void>; userChoice: Promise<{ outcome: string }> }

export const engagedAfterVisits = 2;
export const engagedAfterMs = 60_000;
export const dismissedForMs = 14 * 24 * 3_600_000;

let deferred: InstallPromptEvent | undefined;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** Keeps the browser's install offer from now on; `held` is one main.tsx caught before this loaded. */
export function watchInstallPrompt(held?: Event) {
  countVisit();
  if (held) {
    deferred = held as InstallPromptEvent;
    changed();
  }
  window.addEventListener('beforeinstallprompt', (event) => {
    // Chromium would show its own banner now; the app's card or "Install app" shows it later.
    event.preventDefault();
    deferred = event as InstallPromptEvent;
    changed();
  });
  window.addEventListener('appinstalled', () => {
    deferred = undefined;
    changed();
  });
}

export const canInstall = () => deferred !== undefined;

/** Running as the installed app: the display mode of the manifest, or iOS's home-screen flag. */
export const isStandalone = () => window.matchMedia?.('(display-mode: standalone)').matches === true
  || (navigator as Navigator & { standalone?: boolean }).standalone === true;

/** iPhone, iPod or iPad (which says it is a Mac, with a touch screen): installed only by hand. */
export function isIos(userAgent = navigator.userAgent, maxTouchPoints = navigator.maxTouchPoints ?? 0) {
  return /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}

/** How this device installs the app now: the browser's prompt, the iOS Share menu, or not at all. */
export function installMethod(): 'prompt' | 'ios' | undefined {
  if (isStandalone()) return undefined;
  if (canInstall()) return 'prompt';
  return isIos() ? 'ios' : undefined;
}

export function onInstallAvailabilityChange(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function promptInstall(): Promise<boolean> {
  if (!deferred) return false;
  const event = deferred;
  deferred = undefined;
  changed();
  await event.prompt();
  return (await event.userChoice).outcome === 'accepted';
}

/**
 * Counts this tab's session as a visit, once (a reload continues the visit), and notes when it
 * started. Safe to call from everyone who needs the count.
 */
export function countVisit(nowMs = Date.now()) {
  if (readSession(installKeys.visitStartedAt)) return;
  writeSession(installKeys.visitStartedAt, String(nowMs));
  writeLocal(installKeys.visits, String(visits() + 1));
}

const visits = () => Math.max(0, Number(readLocal(installKeys.visits)) || 0);

/** Milliseconds until the visitor counts as engaged (0: now). */
export function msUntilEngaged(nowMs = Date.now()): number {
  if (visits() >= engagedAfterVisits) return 0;
  const startedAtMs = Number(readSession(installKeys.visitStartedAt)) || nowMs;
  return Math.max(0, startedAtMs + engagedAfterMs - nowMs);
}

/** Dismissed less than two weeks ago. */
export function offerDismissed(nowMs = Date.now()): boolean {
  const dismissedAtMs = Number(readLocal(installKeys.dismissedAt));
  return Number.isFinite(dismissedAtMs) && dismissedAtMs > 0 && nowMs - dismissedAtMs < dismissedForMs;
}

export function dismissOffer(nowMs = Date.now()) {
  writeLocal(installKeys.dismissedAt, String(nowMs));
}
