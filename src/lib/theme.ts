// Light or dark, and which colour means "up". At start, before the first render, the theme in
// force (the stored choice: light or dark; absent: the system's) is set on <html> as antd-mobile's
// own attribute `data-prefers-color-scheme`, which styles.css keys its colours to as well, and the
// colour convention (red or green up; absent: by language, in CSS through :lang) as `data-rise`.
// This module is on the first screen (DESIGN §8 budget): keep it this small. The browser bar's
// colour and following a change of the system's theme wait until the app is idle
// (lib/themeFollow.ts); index.html's theme-color metas cover the system's theme until then.
import { readLocal } from './storage.ts';

export const themeKey = 'bourse.theme';
export const riseKey = 'bourse.rise';

/** The theme in force: the stored choice, else the system's. */
export const resolvedTheme = (stored: string | null, systemIsDark: boolean): 'light' | 'dark' =>
  (stored === 'dark' || (stored !== 'light' && systemIsDark) ? 'dark' : 'light');

/** Marks <html> with the theme in force and the stored colour convention; returns the theme. */
export function applyAppearance() {
  const root = document.documentElement;
  const theme = resolvedTheme(readLocal(themeKey), typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches);
  root.dataset.prefersColorScheme = theme;
  root.dataset.rise = readLocal(riseKey) ?? '';
  return theme;
}
