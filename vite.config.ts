import { defineConfig, type Plugin } from 'vite';
import type { OutputBundle, OutputChunk } from 'rolldown';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { lingui } from '@lingui/vite-plugin';
import { VitePWA } from 'vite-plugin-pwa';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { precompress } from './scripts/precompress.ts';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const appVersion = `${pkg.version}+${Date.now().toString(36)}`;

/** Writes dist/version.json, which the server reports so clients can tell a new version is out. */
const versionFile = (): Plugin => ({
  name: 'bourse-version',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version: appVersion }) });
  },
});

/**
 * Writes `.br` and `.gz` siblings of every text asset once the build is complete: after the other
 * plugins' closeBundle (vite-plugin-pwa writes sw.js there), so every build path (`npm run build`,
 * `npx vite build` in the e2e setup and the benchmark) serves compressed files (DESIGN §5).
 */
const precompressedBuild = (): Plugin => {
  let outDir = 'dist';
  return {
    name: 'bourse-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await precompress(outDir);
      },
    },
  };
};

/** What the first screen (home, in the default language) needs beyond the entry's static imports. */
const firstScreenModules = ['src/features/home/HomePage.tsx', 'src/locales/en-us/messages.po'];
/** Page modules (and app/pages.ts, which imports them): fetched after the first screen, run only when their route is near. */
const pageModule = /[\\/]src[\\/]features[\\/].+Page\.tsx$|[\\/]src[\\/]app[\\/]pages\.ts$/;

/**
 * The first use of the browser's number formatting (ICU) costs tens of milliseconds of main
 * thread on a phone. This tiny script, loaded async ahead of the app, pays it while the app's
 * scripts are still downloading, so the market card's first prices do not stall the page.
 */
const warmScript = 'new Intl.NumberFormat().format(0);\n';
const warmFile = `assets/warm-${createHash('sha256').update(warmScript).digest('base64url').slice(0, 8)}.js`;

/**
 * index.html gets `modulepreload` hints for the first screen's lazily imported chunks (the home
 * page and the default catalog), so they download beside the entry instead of after it, and a
 * JSON list of the pages' files (`#page-files`), which app/pagePreload.ts fetches, without running
 * them, once the first screen is drawn where no service worker precaches them (DESIGN §3); and
 * the number-formatting warm-up script above.
 */
const firstScreenPreload = (): Plugin => ({
  name: 'bourse-first-screen',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: warmFile, source: warmScript });
  },
  transformIndexHtml: {
    order: 'post',
    handler(html, { bundle, chunk: entry, filename }) {
      if (!bundle || !entry || path.basename(filename) !== 'index.html') return html;
      const chunks = new Map(Object.values(bundle as OutputBundle)
        .filter((item): item is OutputChunk => item.type === 'chunk').map((item) => [item.fileName, item]));
      const closure = (start: OutputChunk, into = new Set<string>()) => {
        if (into.has(start.fileName)) return into;
        into.add(start.fileName);
        for (const imported of start.imports) {
          const next = chunks.get(imported);
          if (next) closure(next, into);
        }
        return into;
      };
      const byModule = (id: string) => [...chunks.values()].find((item) => item.facadeModuleId?.replaceAll('\\', '/').endsWith(id));
      const loaded = closure(entry);
      const critical = new Set<string>();
      for (const id of firstScreenModules) {
        const found = byModule(id);
        if (!found) throw new Error(`first-screen module ${id} is not in the bundle`);
        for (const file of closure(found)) if (!loaded.has(file)) critical.add(file);
      }
      const pageFiles = new Set<string>();
      for (const item of chunks.values()) {
        if (!item.isDynamicEntry || !item.facadeModuleId || !pageModule.test(item.facadeModuleId)) continue;
        for (const file of closure(item)) {
          if (loaded.has(file) || critical.has(file)) continue;
          pageFiles.add(file);
          for (const css of (chunks.get(file) as OutputChunk & { viteMetadata?: { importedCss: Set<string> } })?.viteMetadata?.importedCss ?? []) pageFiles.add(css);
        }
      }
      return [
        { tag: 'script', attrs: { async: true, src: `/${warmFile}` }, injectTo: 'head-prepend' as const },
        ...[...critical].map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const })),
        {
          tag: 'script', attrs: { type: 'application/json', id: 'page-files' },
          children: JSON.stringify([...pageFiles].sort().map((file) => `/${file}`)), injectTo: 'body' as const,
        },
      ];
    },
  },
});

/**
 * The operators' back office (admin.html) is an app of its own, built by its own configuration
 * (vite.admin.config.ts) into the same directory once the phone app's build is written: a second
 * entry in this build would make the splitter share chunks between the two apps, which cost the
 * phone's first screen about 4 kB, and its files would have to be kept out of the precache one by
 * one. Built after the service worker's precache list is made, none of them can be in it; before
 * the compression pass, so its files get their `.br` and `.gz` siblings too.
 */
const adminBuild = (): Plugin => {
  let outDir = 'dist';
  let root = process.cwd();
  return {
    name: 'bourse-admin-build',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const { build } = await import('vite');
        await build({ configFile: path.resolve(root, 'vite.admin.config.ts'), root, logLevel: 'warn', build: { outDir } });
      },
    },
  };
};

const reactRouterBuild = (file: string) => fileURLToPath(new URL(`./node_modules/react-router/dist/production/${file}`, import.meta.url));

export default defineConfig(({ mode }) => ({
  // react-router's package exports point ESM imports at its development build; production
  // bundles take the production build (about a third smaller, no development checks).
  // antd-mobile imports `use-sync-external-store/shim`, which on React 19 only hands back React's
  // own hook (src/lib/useSyncExternalStoreShim.ts does the same without the fallback code).
  resolve: mode === 'production' ? {
    alias: [
      { find: /^react-router$/, replacement: reactRouterBuild('index.mjs') },
      { find: /^react-router\/dom$/, replacement: reactRouterBuild('dom-export.mjs') },
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: fileURLToPath(new URL('./src/lib/useSyncExternalStoreShim.ts', import.meta.url)) },
    ],
  } : {},
  define: { __APP_VERSION__: JSON.stringify(appVersion) },
  plugins: [
    react(),
    babel({ include: /[\\/]src[\\/].*\.[jt]sx?$/, plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui({ failOnMissing: false, failOnCompileError: true }),
    versionFile(),
    firstScreenPreload(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'Bourse — crypto, gold and forex',
        short_name: 'Bourse',
        description: 'Trade and invest in crypto, gold and forex from your phone.',
        start_url: '/#/home',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        background_color: '#ffffff',
        theme_color: '#0b3d91',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // Locale catalogs other than the one in use are fetched on demand and cached at run time.
        // The back office (built after this list is made) is never precached; the ignore keeps
        // a rebuild into a directory that still holds its files from listing them.
        globIgnores: ['**/locale-!(en-us)-*.js', 'version.json', 'admin.html', 'assets/admin-*'],
      },
      devOptions: { enabled: false },
    }),
    adminBuild(),
    precompressedBuild(),
  ],
  build: {
    target: 'es2022',
    // Every browser of the es2022 target but Safari < 17 knows modulepreload; those few just fetch
    // a little later. The polyfill would cost the first screen about 0.4 kB (DESIGN §8 budget).
    // A page's dynamic import (in app/pages.ts, a chunk loaded after the first screen) carries the
    // page's whole list of files, so a link or a notification opening a page directly fetches them
    // at once instead of one layer of imports after another (five round trips deep for the market
    // before; the first screen's files are unchanged).
    modulePreload: { polyfill: false },
    // The manifest lets the benchmark find exactly the JS the home screen needs.
    manifest: true,
    rollupOptions: {
      input: { main: 'index.html', pc: 'pc.html' },
      output: {
        // React gets its own chunk: left to the automatic splitter it shares a chunk with the
        // animation library of the dialogs, which then loads with the first screen. React-Redux
        // and its useSyncExternalStore shim go with it: once lazily loaded pages inject endpoints
        // of their own, the splitter otherwise moves them into a separate first-screen chunk.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-redux|use-sync-external-store)[\\/]/ },
            { name: 'animation', test: /node_modules[\\/](@react-spring|@use-gesture)[\\/]/ },
          ],
        },
        chunkFileNames: (chunk) => (chunk.facadeModuleId?.includes('/locales/')
          ? `assets/locale-${chunk.facadeModuleId.split('/locales/')[1].split('/')[0]}-[hash].js`
          : 'assets/[name]-[hash].js'),
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
}));
