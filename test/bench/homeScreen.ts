// The files the home screen needs, from the Vite build manifest: the entry, its static imports,
// the home page and the default catalog, plus any other script index.html loads (DESIGN §8
// budget: their JS ≤ 120 kB brotli on the wire).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The build measured: dist/, or BENCH_WEB_ROOT (a build of one's own, `npx vite build --outDir`),
 * so that someone comparing two builds does not measure a dist/ another person just rebuilt.
 */
export const benchWebRoot = path.resolve(root, process.env.BENCH_WEB_ROOT ?? 'dist');

interface ManifestChunk { file: string; imports?: string[]; css?: string[]; isEntry?: boolean; src?: string }

/** Paths under dist/ of the home screen's JS (`css` lists the stylesheets they bring). */
export function homeScreenFiles(): { js: string[]; css: string[] } {
  const manifest = JSON.parse(fs.readFileSync(path.join(benchWebRoot, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const needed = new Set<string>();
  const visit = (key: string) => {
    if (needed.has(key) || !manifest[key]) return;
    needed.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  visit('index.html');
  visit('src/features/home/HomePage.tsx');
  const catalog = Object.keys(manifest).find((key) => key.includes('locales/en-us/messages.po'));
  if (catalog) visit(catalog);
  const keys = [...needed];
  const js = keys.map((key) => manifest[key].file);
  const page = fs.readFileSync(path.join(benchWebRoot, 'index.html'), 'utf8');
  for (const [, file] of page.matchAll(/<script\b[^>]*\bsrc="\/([^"]+\.js)"/g)) if (!js.includes(file)) js.push(file);
  return {
    js,
    css: [...new Set(keys.flatMap((key) => manifest[key].css ?? []))],
  };
}
