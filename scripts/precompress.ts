// Pre-compresses the built PWA (DESIGN §5): every text asset gets a brotli (quality 11) and a gzip
// (level 9) sibling, `name.br` and `name.gz`, which the server sends with `Content-Encoding` to
// clients that accept them. A sibling that would not be smaller than its original is not written.
// Run by the Vite build (vite.config.ts, after the service worker is written), or by hand:
// `npx tsx scripts/precompress.ts [dir]`. PRECOMPRESS_FAST=1 (the e2e suite's own build, where only
// the serving of compressed siblings is under test, not their size) uses brotli 5 and gzip 6:
// quality 11 spent most of a test run's build time (over 100 s of 135 on a loaded machine).
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Extensions worth compressing: scripts, styles, pages, icons as SVG, the manifest, JSON. */
export const compressibleFile = /\.(?:m?js|css|html|svg|webmanifest|json|txt|map)$/;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    // Dot-directories (Vite's .vite/manifest.json) are not served.
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile() && compressibleFile.test(entry.name)) yield full;
  }
}

const fast = process.env.PRECOMPRESS_FAST === '1';
const brotliQuality = fast ? 5 : zlib.constants.BROTLI_MAX_QUALITY;
const gzipLevel = fast ? 6 : zlib.constants.Z_BEST_COMPRESSION;

async function compressFile(file: string) {
  const source = await fs.readFile(file);
  const [br, gz] = await Promise.all([
    brotli(source, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
    gzip(source, { level: gzipLevel }),
  ]);
  const written: string[] = [];
  for (const [suffix, data] of [['.br', br], ['.gz', gz]] as const) {
    await fs.rm(`${file}${suffix}`, { force: true });
    if (data.length >= source.length) continue;
    await fs.writeFile(`${file}${suffix}`, data);
    written.push(suffix);
  }
  return { bytes: source.length, br: written.includes('.br') ? br.length : source.length };
}

/** Compresses every text asset under `dir`; returns how many files and their total sizes. */
export async function precompress(dir: string) {
  const list: string[] = [];
  for await (const file of files(dir)) list.push(file);
  let bytes = 0;
  let brBytes = 0;
  // A few at a time: zlib's work runs on the libuv thread pool.
  for (let i = 0; i < list.length; i += 4) {
    for (const result of await Promise.all(list.slice(i, i + 4).map(compressFile))) {
      bytes += result.bytes;
      brBytes += result.br;
    }
  }
  return { files: list.length, bytes, brBytes };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const dir = path.resolve(process.argv[2] ?? 'dist');
  const result = await precompress(dir);
  console.log(`precompressed ${result.files} files in ${dir}: ${(result.bytes / 1024).toFixed(1)} kB → ${(result.brBytes / 1024).toFixed(1)} kB brotli`);
}
