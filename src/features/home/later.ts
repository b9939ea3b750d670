// The home page's parts that its first screen does not show, the language picker (loaded when
// opened) and the install card (when the browser is next idle), are reached through this small
// module: the list of files each of them needs then comes with it, instead of with the first
// screen's code (DESIGN §8 budget).
export const loadLanguagePicker = () => import('../../components/LanguagePicker.tsx')
  .then((module) => ({ default: module.LanguagePicker }));

export const loadInstallOffer = () => new Promise((resolve) => (window.requestIdleCallback ?? setTimeout)(resolve))
  .then(() => import('../../components/InstallOffer.tsx'));

/**
 * Home's notice strip, pop-up announcement and bell (features/notices/HomeNotices.tsx), with the
 * content texts, once the browser is idle: one chunk for the three.
 */
let homeNotices: Promise<typeof import('../notices/HomeNotices.tsx')> | undefined;
const loadNotices = () => {
  homeNotices ??= new Promise((resolve) => (window.requestIdleCallback ?? setTimeout)(resolve))
    .then(() => import('../notices/HomeNotices.tsx'))
    .then(async (module) => {
      await module.prepare();
      return module;
    });
  return homeNotices;
};
export const loadHomeNotices = () => loadNotices().then((module) => ({ default: module.default }));
export const loadHomeBell = () => loadNotices().then((module) => ({ default: module.HomeBell }));
