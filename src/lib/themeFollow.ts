// The rest of lib/theme.ts, off the first screen: the browser bar's colour (<meta name=theme-color>)
// for the theme in force, and following the system when it switches between light and dark.
import { applyAppearance } from './theme.ts';

/** The browser's colour of its own bar over the app, per theme (styles.css: the header's colours). */
export const barColors = { light: '#0b3d91', dark: '#16191e' } as const;

/** Applies the stored choices to the page and the browser bar (on a change in My, or of the system). */
export function applyAppearanceEverywhere() {
  const theme = applyAppearance();
  // index.html has one per system scheme; a choice in My overrides both.
  for (const meta of document.querySelectorAll('meta[name=theme-color]')) meta.setAttribute('content', barColors[theme]);
}

/** Once the app is idle: the bar's colour now, and both again whenever the system's theme changes. */
export function followSystemTheme() {
  applyAppearanceEverywhere();
  if (typeof matchMedia === 'function') matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyAppearanceEverywhere);
}
