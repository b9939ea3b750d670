// Makes sure the end-to-end journeys have a Chromium (issue 20: `npm test` passes on a fresh machine
// with nothing installed by hand). CHROMIUM_PATH names one; else Debian's /usr/bin/chromium, which is
// installed with apt-get when this runs as root on Debian (as .ci/run does); otherwise the run stops
// with one line saying what to install.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export function ensureChromium(): string {
  const wanted = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (fs.existsSync(wanted)) return wanted;
  if (process.env.CHROMIUM_PATH) throw new Error(`CHROMIUM_PATH=${wanted} does not exist: point it at a Chromium or Chrome binary.`);
  const debianRoot = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get') && fs.existsSync('/etc/debian_version');
  if (!debianRoot) {
    throw new Error('The end-to-end tests need Chromium: install Debian\'s package (apt-get install chromium) or set CHROMIUM_PATH.');
  }
  console.log('Installing Debian\'s chromium for the end-to-end tests');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (!fs.existsSync(wanted)) throw new Error('apt-get installed chromium but /usr/bin/chromium is missing.');
  return wanted;
}
