import type { ComponentType } from 'react';
// The home page's parts that its first screen does not show, the language picker (loaded when
// opened) and the install card (when the browser is next idle), are reached through this small
// module: the list of files each of them needs then comes with it, instead of with the first
// screen's code (DESIGN §8 budget).
export const loadLanguagePicker = () => import('../../components/LanguagePicker.tsx')
  .then((module) => ({ default: module.LanguagePicker }));

export const loadInstallOffer = () => new Promise((resolve) => (window.requestIdleCallback ?? setTimeout)(resolve))
  .then(() => import('../../components/InstallOffer.tsx'));

/** What the notices feature hands home for its strip, pop-up and bell (app/routes.ts provides it). */
export interface HomeNoticesModule { default: ComponentType; HomeBell: ComponentType }
const noNotices: HomeNoticesModule = { default: () => null, HomeBell: () => null };
let homeNotices: Promise<HomeNoticesModule> | undefined;
/** Home's notice strip, pop-up announcement and bell, once the browser is idle: one load for the three. */
export function loadHomeNotices(load: (() => Promise<HomeNoticesModule>) | undefined): Promise<HomeNoticesModule> {
  homeNotices ??= new Promise((resolve) => (window.requestIdleCallback ?? setTimeout)(resolve))
    .then(() => load?.() ?? noNotices);
  return homeNotices;
}
