// Theme and colour convention (issue 19): the stored theme choice wins over the system's, and is
// applied to <html> (antd-mobile's data-prefers-color-scheme) with the browser bar's colour; the
// colour convention defaults to red-up for simplified and Taiwan's Chinese only, and the choice
// in My is stored and applied at once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { resolvedTheme, riseKey, themeKey } from '../../src/lib/theme.ts';
import { applyAppearanceEverywhere } from '../../src/lib/themeFollow.ts';
import { AppearanceSettings, riseDefault, riseOf, themeChoiceOf } from '../../src/features/profile/AppearanceSettings.tsx';
import { localeCodes } from '../../src/lib/locales.ts';

describe('resolvedTheme', () => {
  it('follows the system without a choice, and the choice over the system', () => {
    expect(resolvedTheme(null, false)).toBe('light');
    expect(resolvedTheme(null, true)).toBe('dark');
    expect(resolvedTheme('light', true)).toBe('light');
    expect(resolvedTheme('dark', false)).toBe('dark');
  });

  it('treats anything else stored as no choice', () => {
    expect(resolvedTheme('purple', true)).toBe('dark');
    expect(resolvedTheme('', false)).toBe('light');
    expect(themeChoiceOf('purple')).toBe('system');
    expect(themeChoiceOf('dark')).toBe('dark');
  });
});

describe('colour convention', () => {
  it('is red-up for zh-cn and zh-tw and green-up in every other language', () => {
    const red = localeCodes.filter((code) => riseDefault(code) === 'red');
    expect(red.sort()).toEqual(['zh-cn', 'zh-tw']);
    expect(riseDefault('zh-hk')).toBe('green');
    expect(riseDefault('en-us')).toBe('green');
  });

  it('takes the stored choice over the language', () => {
    expect(riseOf('green', 'zh-tw')).toBe('green');
    expect(riseOf('red', 'en-us')).toBe('red');
    expect(riseOf('blue', 'zh-cn')).toBe('red');
  });
});

describe('applyAppearanceEverywhere', () => {
  beforeEach(() => {
    localStorage.clear();
    document.head.innerHTML = '<meta name="theme-color" content="#0b3d91"><meta name="theme-color" content="#16191e">';
  });

  it('marks the document dark or light with the matching bar colour, and the stored convention', () => {
    localStorage.setItem(themeKey, 'dark');
    localStorage.setItem(riseKey, 'red');
    applyAppearanceEverywhere();
    expect(document.documentElement.dataset.prefersColorScheme).toBe('dark');
    expect(document.documentElement.dataset.rise).toBe('red');
    const dark = document.querySelector('meta[name=theme-color]')!.getAttribute('content');
    localStorage.setItem(themeKey, 'light');
    localStorage.removeItem(riseKey);
    applyAppearanceEverywhere();
    expect(document.documentElement.dataset.prefersColorScheme).toBe('light');
    expect(document.documentElement.dataset.rise).toBe('');
    expect([...document.querySelectorAll('meta[name=theme-color]')].map((meta) => meta.getAttribute('content'))).toEqual(['#0b3d91', '#0b3d91']);
    expect(dark).not.toBe('#0b3d91');
  });
});

describe('AppearanceSettings', () => {
  beforeEach(() => {
    localStorage.clear();
    i18n.activate('en-us');
  });
  afterEach(() => cleanup());

  const renderSettings = () => render(<I18nProvider i18n={i18n}><AppearanceSettings /></I18nProvider>);

  it('stores the theme chosen and applies it at once; "as the system" forgets it', () => {
    renderSettings();
    const theme = screen.getByTestId('theme-choice');
    expect(theme.querySelector('[aria-checked=true]')?.getAttribute('data-value')).toBe('system');
    fireEvent.click(theme.querySelector('[data-value=dark]')!);
    expect(localStorage.getItem(themeKey)).toBe('dark');
    expect(document.documentElement.dataset.prefersColorScheme).toBe('dark');
    expect(theme.querySelector('[aria-checked=true]')?.getAttribute('data-value')).toBe('dark');
    fireEvent.click(theme.querySelector('[data-value=system]')!);
    expect(localStorage.getItem(themeKey)).toBeNull();
  });

  it('shows the language default for the colours and stores a choice', () => {
    i18n.loadAndActivate({ locale: 'zh-tw', messages: {} });
    renderSettings();
    const rise = screen.getByTestId('rise-choice');
    expect(rise.querySelector('[aria-checked=true]')?.getAttribute('data-value')).toBe('red');
    fireEvent.click(rise.querySelector('[data-value=green]')!);
    expect(localStorage.getItem(riseKey)).toBe('green');
    expect(document.documentElement.dataset.rise).toBe('green');
  });
});
