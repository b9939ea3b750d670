// lib/install.ts: when the install card may show (engagement, dismissal, installed app) and how
// this device installs (the browser's prompt, iOS's Share menu, or not at all).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ipadAsMac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const androidChrome = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const dayMs = 24 * 3_600_000;

/** A fresh copy of the module (its held prompt is module state) in a fresh browser profile. */
async function freshInstall() {
  vi.resetModules();
  return import('../../src/lib/install.ts');
}

function installPromptEvent(outcome: 'accepted' | 'dismissed') {
  const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
    prompt: () => Promise<void>; userChoice: Promise<{ outcome: string }>;
  };
  event.prompt = vi.fn(async () => undefined);
  event.userChoice = Promise.resolve({ outcome });
  return event;
}

function standalone(matches: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: matches && query === '(display-mode: standalone)' }));
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  standalone(false);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('engagement', () => {
  it('waits a minute into the first visit, counting a reload as the same visit', async () => {
    const install = await freshInstall();
    install.countVisit(1_000_000);
    expect(install.msUntilEngaged(1_000_000)).toBe(60_000);
    install.countVisit(1_030_000);
    expect(localStorage.getItem(install.installKeys.visits)).toBe('1');
    expect(install.msUntilEngaged(1_030_000)).toBe(30_000);
    expect(install.msUntilEngaged(1_060_000)).toBe(0);
  });

  it('takes a second visit (a new tab session) as engaged at once', async () => {
    const install = await freshInstall();
    install.countVisit(1_000_000);
    sessionStorage.clear();
    install.countVisit(5_000_000);
    expect(localStorage.getItem(install.installKeys.visits)).toBe('2');
    expect(install.msUntilEngaged(5_000_000)).toBe(0);
  });
});

describe('dismissal', () => {
  it('keeps the card away for two weeks after "Not now", then offers it again', async () => {
    const install = await freshInstall();
    expect(install.offerDismissed(10 * dayMs)).toBe(false);
    install.dismissOffer(10 * dayMs);
    expect(install.offerDismissed(10 * dayMs + 1)).toBe(true);
    expect(install.offerDismissed(24 * dayMs - 1)).toBe(true);
    expect(install.offerDismissed(24 * dayMs)).toBe(false);
  });

  it('ignores a stored value that is not a time', async () => {
    const install = await freshInstall();
    localStorage.setItem(install.installKeys.dismissedAt, 'yes');
    expect(install.offerDismissed(10 * dayMs)).toBe(false);
  });
});

describe('how this device installs', () => {
  it('offers the browser prompt held before the module loaded, and prompts once', async () => {
    vi.stubGlobal('navigator', { ...navigator, userAgent: androidChrome, maxTouchPoints: 5 });
    const install = await freshInstall();
    expect(install.installMethod()).toBeUndefined();
    const held = installPromptEvent('accepted');
    install.watchInstallPrompt(held);
    expect(install.installMethod()).toBe('prompt');
    await expect(install.promptInstall()).resolves.toBe(true);
    expect(held.prompt).toHaveBeenCalledTimes(1);
    expect(install.installMethod()).toBeUndefined();
    await expect(install.promptInstall()).resolves.toBe(false);
  });

  it('keeps a prompt the browser sends later, and tells listeners; installed, it is gone', async () => {
    const install = await freshInstall();
    install.watchInstallPrompt();
    const listener = vi.fn();
    install.onInstallAvailabilityChange(listener);
    const event = installPromptEvent('dismissed');
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(install.canInstall()).toBe(true);
    window.dispatchEvent(new Event('appinstalled'));
    expect(install.canInstall()).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('shows the Share steps on an iPhone and on an iPad that says it is a Mac, not on a Mac', async () => {
    const install = await freshInstall();
    expect(install.isIos(iphone, 5)).toBe(true);
    expect(install.isIos(ipadAsMac, 5)).toBe(true);
    expect(install.isIos(ipadAsMac, 0)).toBe(false);
    expect(install.isIos(androidChrome, 5)).toBe(false);
    vi.stubGlobal('navigator', { ...navigator, userAgent: iphone, maxTouchPoints: 5 });
    expect(install.installMethod()).toBe('ios');
  });

  it('offers nothing in the installed app: display-mode standalone, or iOS home screen', async () => {
    const install = await freshInstall();
    install.watchInstallPrompt(installPromptEvent('accepted'));
    standalone(true);
    expect(install.installMethod()).toBeUndefined();
    standalone(false);
    vi.stubGlobal('navigator', { ...navigator, userAgent: iphone, maxTouchPoints: 5, standalone: true });
    expect(install.installMethod()).toBeUndefined();
  });
});
