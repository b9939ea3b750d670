// Every catalog of every non-source locale translates every message, keeping its placeholders
// (DESIGN §3: a missing translation fails the build's tests).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localeCodes, sourceLocale } from '../../src/lib/locales.ts';

const localesDir = path.resolve(import.meta.dirname, '../../src/locales');

/** msgid → msgstr of a .po file (multi-line strings joined). */
function readCatalog(file: string): Map<string, string> {
  const entries = new Map<string, string>();
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  let field: 'msgid' | 'msgstr' | undefined;
  let msgid = '';
  let msgstr = '';
  const flush = () => {
    if (msgid !== '') entries.set(msgid, msgstr);
    msgid = '';
    msgstr = '';
  };
  for (const line of lines) {
    if (line.startsWith('#~')) continue;
    const start = /^(msgid|msgstr) "(.*)"$/.exec(line);
    if (start) {
      if (start[1] === 'msgid') flush();
      field = start[1] as 'msgid' | 'msgstr';
      if (field === 'msgid') msgid = start[2];
      else msgstr = start[2];
      continue;
    }
    const continuation = /^"(.*)"$/.exec(line);
    if (continuation && field === 'msgid') msgid += continuation[1];
    else if (continuation && field === 'msgstr') msgstr += continuation[1];
  }
  flush();
  return entries;
}

const placeholders = (text: string) => [...text.matchAll(/\{[A-Za-z0-9_]+\}/g)].map((match) => match[0]).sort();
const catalogNames = fs.readdirSync(path.join(localesDir, sourceLocale)).filter((name) => name.endsWith('.po'));

describe('translation catalogs', () => {
  it('exist for every locale and catalog', () => {
    expect(catalogNames.length).toBeGreaterThan(0);
    for (const locale of localeCodes) {
      for (const name of catalogNames) expect(fs.existsSync(path.join(localesDir, locale, name)), `${locale}/${name}`).toBe(true);
    }
  });

  for (const locale of localeCodes.filter((code) => code !== sourceLocale)) {
    it(`${locale}: translates every message and keeps its placeholders`, () => {
      for (const name of catalogNames) {
        const source = readCatalog(path.join(localesDir, sourceLocale, name));
        const catalog = readCatalog(path.join(localesDir, locale, name));
        for (const msgid of source.keys()) {
          const translated = catalog.get(msgid);
          expect(translated, `${locale}/${name}: "${msgid}"`).toBeTruthy();
          expect(placeholders(translated!), `${locale}/${name}: "${msgid}"`).toEqual(placeholders(msgid));
        }
      }
    });
  }
});
