// The system's "reduce motion" setting, followed live: the home notice strip stops sliding and the
// back office's drawers and modals appear without their zoom and slide.
import { useSyncExternalStore } from 'react';

const query = '(prefers-reduced-motion: reduce)';

const subscribe = (onChange: () => void) => {
  const list = typeof matchMedia === 'function' ? matchMedia(query) : undefined;
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
};

const current = () => (typeof matchMedia === 'function' ? matchMedia(query).matches : false);

export const useReducedMotion = (): boolean => useSyncExternalStore(subscribe, current, () => false);
