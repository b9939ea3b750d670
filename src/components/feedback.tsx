// Toasts and dialogs shown imperatively, loaded on first use: they bring antd-mobile's mask and
// animation library, which the first screen does not need (DESIGN §8 budget). Every imperative
// toast or dialog of the app goes through here, so the React 19 render hook antd-mobile 5 needs
// (`unstableSetRender`) is installed exactly once, before the first one shows.
import type { DialogAlertProps, DialogConfirmProps } from 'antd-mobile';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../lib/i18n.ts';

export const toastDurationMs = 2000;
/** On every toast's mask: styles.css places it at the top and wraps its words whole. */
export const toastClassName = 'app-toast';

let renderHookInstalled: Promise<void> | undefined;
/** Every module load a toast or dialog has started: see `feedbackLoaded`. */
const loads = new Set<Promise<unknown>>();

function track<T>(load: Promise<T>): Promise<T> {
  loads.add(load);
  void load.finally(() => loads.delete(load)).catch(() => {});
  return load;
}

/**
 * Settles once every toast and dialog module load started so far has finished. The web tests wait
 * for it after each file (test/web/setup.ts): a toast shown by a file's last step would otherwise
 * still be loading antd-mobile when the test environment is torn down.
 */
export async function feedbackLoaded(): Promise<void> {
  while (loads.size > 0) await Promise.allSettled([...loads]);
}

/** The toast and dialog modules once a toast or dialog has loaded them. */
let shown: { Toast?: { clear(): void }; Dialog?: { clear(): void } } = {};

/**
 * Closes every toast and dialog showing and lets their roots unmount. The web tests call it after
 * each file (test/web/setup.ts): a toast still showing closes by its own timer, and that unmount
 * would run after the test environment is gone.
 */
export async function closeFeedback(): Promise<void> {
  await feedbackLoaded();
  shown.Toast?.clear();
  shown.Dialog?.clear();
  // The render hook unmounts a closed root on the next macrotask (see installRenderHook).
  await new Promise((resolve) => setTimeout(resolve, 10));
}

function installRenderHook() {
  renderHookInstalled ??= track(Promise.all([
    import('antd-mobile/es/utils/unstable-render'),
    import('react-dom/client'),
  ]).then(([{ unstableSetRender }, { createRoot }]) => {
    unstableSetRender((node, container) => {
      const host = container as Element & { _reactRoot?: ReturnType<typeof createRoot> };
      host._reactRoot ??= createRoot(container);
      // These separate roots get the i18n provider too, so dialog content can use translations.
      host._reactRoot.render(<I18nProvider i18n={i18n}>{node}</I18nProvider>);
      return async () => {
        await new Promise((resolve) => setTimeout(resolve, 0));
        host._reactRoot?.unmount();
        delete host._reactRoot;
      };
    });
  }));
  return renderHookInstalled;
}

/**
 * A short confirmation ("Saved", "Success"). Near the top of the screen: a toast in the middle
 * covers the form's button, and a refusal belongs under the form or field it concerns
 * (components/form), where it stays until the user acts.
 */
export async function showToast(content: string) {
  const [{ default: Toast }] = await track(Promise.all([import('antd-mobile/es/components/toast/index.js'), installRenderHook()]));
  shown = { ...shown, Toast };
  // The class lets styles.css outrank antd-mobile's own toast rules, which load after it (with this chunk).
  Toast.show({ content, duration: toastDurationMs, position: 'top', maskClassName: toastClassName });
}

export async function confirmDialog(props: DialogConfirmProps): Promise<boolean> {
  const [{ default: Dialog }] = await track(Promise.all([import('antd-mobile/es/components/dialog/index.js'), installRenderHook()]));
  shown = { ...shown, Dialog };
  return Dialog.confirm(props);
}

export async function alertDialog(props: DialogAlertProps): Promise<void> {
  const [{ default: Dialog }] = await track(Promise.all([import('antd-mobile/es/components/dialog/index.js'), installRenderHook()]));
  shown = { ...shown, Dialog };
  return Dialog.alert(props);
}
