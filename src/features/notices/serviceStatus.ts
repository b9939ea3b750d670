// The platform's status as the 60-second check last read it (GET /public/status, app/background.ts)
// and what the frame shows for it (statusView.ts decides). A tiny store of its own, read by the app
// frame on the first screen: no Redux slice, nothing persisted (the next check is a minute away).
import { useSyncExternalStore } from 'react';
import type { Status } from '../../api/contract/content.ts';

export interface ServiceState { view: 'none' | 'maintenance' | 'update'; status?: Status }

let current: ServiceState = { view: 'none' };
const listeners = new Set<() => void>();
let check: () => Promise<void> = async () => undefined;

export function serviceStateReceived(state: ServiceState) {
  current = state;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
export const useServiceState = () => useSyncExternalStore(subscribe, () => current, () => current);

/** The app's background work hands in its status check, for the maintenance page's "Check again". */
export function provideStatusCheck(run: () => Promise<void>) {
  check = run;
}
export const checkStatusNow = () => check();
