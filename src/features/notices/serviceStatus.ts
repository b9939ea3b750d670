// The platform's status as the 60-second check last read it (GET /public/status, app/background.ts):
// maintenance with the operator's message and end time, and the oldest app version still served.
// A tiny store of its own (no Redux slice: the app frame reads it on the first screen, and a
// status is not worth persisting — the next check is a minute away).
import { useSyncExternalStore } from 'react';
import type { Status } from '../../api/contract/content.ts';

let current: Status | undefined;
const listeners = new Set<() => void>();
let check: () => Promise<void> = async () => undefined;

/** The app's background work hands in its status check, for the maintenance page's "Check again". */
export function provideStatusCheck(run: () => Promise<void>) {
  check = run;
}
export const checkStatusNow = () => check();

export function statusReceived(status: Status | undefined) {
  if (!status || typeof status.maintenance !== 'boolean') return;
  current = status;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
export const useServiceStatus = () => useSyncExternalStore(subscribe, () => current, () => current);

/** The numbered part of a version ("0.1.0+abc" → [0, 1, 0]); [] when it has none. */
const partsOf = (version: string) => (version.split('+')[0]!.match(/^\d+(\.\d+)*$/) ? version.split('+')[0]!.split('.').map(Number) : []);

/** Whether `appVersion` is older than `minVersion` (missing parts count as 0; an unreadable version never is). */
export function isOlderThan(appVersion: string, minVersion: string | undefined): boolean {
  if (!minVersion) return false;
  const app = partsOf(appVersion);
  const min = partsOf(minVersion);
  if (app.length === 0 || min.length === 0) return false;
  for (let index = 0; index < Math.max(app.length, min.length); index += 1) {
    const difference = (app[index] ?? 0) - (min[index] ?? 0);
    if (difference !== 0) return difference < 0;
  }
  return false;
}

declare const __APP_VERSION__: string;
export const appVersion = () => (typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '');

/** What the frame must show: nothing, the maintenance page, or the request to update. */
export function statusView(status: Status | undefined, version = appVersion()): 'none' | 'maintenance' | 'update' {
  if (!status) return 'none';
  if (status.maintenance) return 'maintenance';
  return isOlderThan(version, status.minAppVersion) ? 'update' : 'none';
}
