// My › Appearance: the theme (as the system, light or dark) and the colour convention (green up
// or red up). Both are kept in localStorage and applied at once (lib/themeFollow.ts; lib/theme.ts
// applies them at start); without a choice the theme follows the system and the convention the
// language (red up in simplified and Taiwan's Chinese, as their markets do; styles.css :lang).
import { useState } from 'react';
import { List } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { readLocal, writeLocal } from '../../lib/storage.ts';
import { riseKey, themeKey } from '../../lib/theme.ts';
import { applyAppearanceEverywhere } from '../../lib/themeFollow.ts';
import './appearance.css';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Rise = 'green' | 'red';

/** The stored theme choice; anything else is the system's. */
export const themeChoiceOf = (stored: string | null): ThemeChoice => (stored === 'light' || stored === 'dark' ? stored : 'system');

/** Red up where the user's markets show it so (mainland China, Taiwan), green up elsewhere. */
export const riseDefault = (locale: string): Rise => (locale === 'zh-cn' || locale === 'zh-tw' ? 'red' : 'green');

/** The convention in force: the stored choice, else the language's. */
export const riseOf = (stored: string | null, locale: string): Rise => (stored === 'red' || stored === 'green' ? stored : riseDefault(locale));

function Choices<T extends string>({ label, testId, value, options, onChange }: {
  label: string; testId: string; value: T; options: { value: T; label: string }[]; onChange: (value: T) => void;
}) {
  return (
    <div className="appearance-choices" role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((option) => (
        <button key={option.value} type="button" role="radio" aria-checked={value === option.value} data-value={option.value}
          className={`appearance-choice${value === option.value ? ' active' : ''}`} onClick={() => onChange(option.value)}>
          {option.label}
        </button>
      ))}
    </div>
  );
}

export function AppearanceSettings() {
  const { t, i18n } = useLingui();
  const [theme, setTheme] = useState<ThemeChoice>(() => themeChoiceOf(readLocal(themeKey)));
  const [storedRise, setStoredRise] = useState(() => readLocal(riseKey));
  const rise = riseOf(storedRise, i18n.locale);

  const chooseTheme = (choice: ThemeChoice) => {
    writeLocal(themeKey, choice === 'system' ? null : choice);
    setTheme(choice);
    applyAppearanceEverywhere();
  };
  const chooseRise = (choice: Rise) => {
    writeLocal(riseKey, choice);
    setStoredRise(choice);
    applyAppearanceEverywhere();
  };

  return (
    <List header={t`Appearance`} className="appearance">
      <List.Item description={
        <Choices label={t`Theme`} testId="theme-choice" value={theme} onChange={chooseTheme} options={[
          { value: 'system', label: t`As the system` }, { value: 'light', label: t`Light` }, { value: 'dark', label: t`Dark` },
        ]} />
      }>
        {t`Theme`}
      </List.Item>
      <List.Item description={
        <Choices label={t`Price colours`} testId="rise-choice" value={rise} onChange={chooseRise} options={[
          { value: 'green', label: t`Green up, red down` }, { value: 'red', label: t`Red up, green down` },
        ]} />
      }>
        {t`Price colours`}
      </List.Item>
    </List>
  );
}
