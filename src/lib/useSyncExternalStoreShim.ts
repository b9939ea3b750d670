// Stands in for `use-sync-external-store/shim` (vite.config.ts alias): React 19 has the hook, which
// is all the shim hands out on React 18 and later, so its fallback code need not be shipped.
export { useSyncExternalStore } from 'react';
