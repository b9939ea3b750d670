// What the frame must show for a status the 60-second check read (app/background.ts): nothing,
// the maintenance page, or the request to update an app older than the platform still serves.
// Kept apart from serviceStatus.ts, which the first screen imports, so this stays off it.
import type { Status } from '../../api/contract/content.ts';

export type StatusView = 'none' | 'maintenance' | 'update';

/** The numbered part of a version ("0.1.0+abc" → [0, 1, 0]); [] when it has none. */
function partsOf(version: string): number[] {
  const numbered = version.split('+')[0] ?? '';
  return /^\d+(\.\d+)*$/.test(numbered) ? numbered.split('.').map(Number) : [];
}

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

export function statusView(status: Status | undefined, version = appVersion()): StatusView {
  if (!status || typeof status.maintenance !== 'boolean') return 'none';
  if (status.maintenance) return 'maintenance';
  return isOlderThan(version, status.minAppVersion) ? 'update' : 'none';
}
