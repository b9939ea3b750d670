// Work that runs beside the pages: the status check (server time offset, new version) at start
// and every 60 s; the activity report while logged in; importantCustomerOnLine at most hourly;
// and the desktop redirect to pc.html when the sys_set setting asks for it (spec §2, §7, §9).
import { paths } from '../api/contract/paths.ts';
import type { ServerTime, SysSet } from '../api/contract/system.ts';
import { baseQuery } from '../api/api.ts';
import { learnServerTime } from '../api/serverClock.ts';
import { readLocal, storageKeys, writeLocal, writeSession } from '../lib/storage.ts';
import { followSystemTheme } from '../lib/themeFollow.ts';
import type { AppStore } from './store.ts';
import { contentPaths, type Status } from '../api/contract/content.ts';
import { provideStatusCheck, serviceStateReceived } from '../features/notices/serviceStatus.ts';
import { statusView } from '../features/notices/statusView.ts';

export const statusIntervalMs = 60_000;
export const customerOnlineIntervalMs = 3_600_000;
export const activityReportIntervalMs = 5 * 60_000;
export const desktopMinWidthPx = 575;

declare const __APP_VERSION__: string;

const call = <T>(store: AppStore, url: string, params?: Record<string, string>) =>
  Promise.resolve(baseQuery({ url, params, quietUnauthorized: true }, { dispatch: store.dispatch, getState: store.getState } as never, {}))
    .then((result) => ('data' in result ? (result.data as T) : undefined));

export async function checkStatus(store: AppStore, onNewVersion: () => void) {
  const sentAtMs = Date.now();
  const status = await call<ServerTime>(store, paths.serverTime);
  if (!status) return;
  learnServerTime(status.serverTime, sentAtMs, Date.now());
  if (status.version !== 'dev' && typeof __APP_VERSION__ === 'string' && status.version !== __APP_VERSION__) onNewVersion();
}

/** The platform's status (maintenance, the oldest app version served), for the frame to show (issue 21). */
export async function checkServiceStatus(store: AppStore) {
  const status = await call<Status>(store, contentPaths.status);
  // An unanswered check (offline) keeps what the last one said.
  if (status) serviceStateReceived({ view: statusView(status), status });
}

function reportPresence(store: AppStore) {
  if (!store.getState().user.token) return;
  const lastMs = Number(readLocal(storageKeys.customerOnlineAtMs)) || 0;
  if (Date.now() - lastMs < customerOnlineIntervalMs) return;
  writeLocal(storageKeys.customerOnlineAtMs, String(Date.now()));
  void call(store, paths.customerOnline);
}

function reportActivity(store: AppStore) {
  if (!store.getState().user.token || document.visibilityState !== 'visible') return;
  void call(store, paths.activeReport, { path: location.hash.slice(1, 200) });
}

/** Sends a desktop visitor outside a frame to /pc.html when sys_set.isPcLimite is on. */
export async function redirectDesktop(store: AppStore): Promise<void> {
  if (window.innerWidth <= desktopMinWidthPx || window.self !== window.top) return;
  const value = await call<string>(store, paths.settingByKey, { key: 'sys_set' });
  if (!value) return;
  try {
    const setting = JSON.parse(value) as Partial<SysSet>;
    if (setting.isPcLimite === true) {
      writeSession(storageKeys.pcReturnUrl, location.href);
      location.assign('/pc.html');
    }
  } catch {
    // A malformed setting keeps the visitor where they are.
  }
}

export function startBackgroundWork(store: AppStore, onNewVersion: () => void) {
  followSystemTheme();
  void checkStatus(store, onNewVersion);
  void checkServiceStatus(store);
  provideStatusCheck(() => checkServiceStatus(store));
  setInterval(() => {
    void checkStatus(store, onNewVersion);
    void checkServiceStatus(store);
  }, statusIntervalMs);
  reportPresence(store);
  reportActivity(store);
  setInterval(() => {
    reportPresence(store);
    reportActivity(store);
  }, activityReportIntervalMs);
}
