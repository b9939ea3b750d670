// Keeps the browser's install prompt (beforeinstallprompt) so a button can offer "Install app".
interface InstallPromptEvent extends Event { prompt(): Promise<void>; userChoice: Promise<{ outcome: string }> }

let deferred: InstallPromptEvent | undefined;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

export function watchInstallPrompt() {
  window.addEventListener('beforeinstallprompt', (event) => {
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
export const isStandalone = () => window.matchMedia?.('(display-mode: standalone)').matches ?? false;

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
