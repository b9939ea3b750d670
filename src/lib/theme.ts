// Light or dark, and which colour means "up". The choice of theme (light, dark, or absent: the
// system's) is applied at start, before the first render, as antd-mobile's own attribute
// `data-prefers-color-scheme` on <html>, which styles.css keys its colours to as well; the colour
// convention (red or green up; absent: by language, in CSS through :lang) as `data-rise`. This
// module is on the first screen (DESIGN §8 budget): keep it this small; the choices' labels and
// their defaults live with the settings in My (features/profile/AppearanceSettings.tsx).
import { readLocal } from './storage.ts';

export const themeKey = 'bourse.theme';
export const riseKey = 'bourse.rise';

/** The browser's colour of its own bar over the app, per theme. */
const barColors = { light: '#0b3d91', dark: '#16191e' };
const systemDark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;

/** The theme in force: the stored choice, else the system's. */
export function resolvedTheme(stored: string | null, systemIsDark: boolean): 'light' | 'dark' {
  return stored === 'dark' || (stored !== 'light' && systemIsDark) ? 'dark' : 'light';
}

/** Applies the stored choices to the document (at start, on a change in My, and when the system switches). */
export function applyAppearance() {
  const root = document.documentElement;
  const theme = resolvedTheme(readLocal(themeKey), Boolean(systemDark?.matches));
  root.dataset.prefersColorScheme = theme;
  root.dataset.rise = readLocal(riseKey) ?? '';
  document.querySelector('meta[name=theme-color]')?.setAttribute('content', barColors[theme]);
}

/** At start: apply now, and again whenever the system's preference changes. */
export function followAppearance() {
  applyAppearance();
  systemDark?.addEventListener('change', applyAppearance);
}
