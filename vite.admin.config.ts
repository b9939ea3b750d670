// The operators' back office (admin.html): a desktop app of its own, built into the phone app's
// output directory by vite.config.ts once that build is written (never into the phone app's
// chunks or its service-worker precache). Every file it makes is named `assets/admin-*`.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { lingui } from '@lingui/vite-plugin';

export default defineConfig({
  plugins: [
    react(),
    babel({ include: /[\\/]src[\\/].*\.[jt]sx?$/, plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui({ failOnMissing: false, failOnCompileError: true }),
  ],
  build: {
    target: 'es2022',
    // The phone app's files are already there: keep them.
    emptyOutDir: false,
    // The phone app's build manifest (the benchmark reads it) stays as it is.
    manifest: false,
    modulePreload: { polyfill: false },
    copyPublicDir: false,
    // A desktop app on an office connection: antd's one large chunk is expected.
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      input: { admin: 'admin.html' },
      output: {
        entryFileNames: 'assets/admin-[name]-[hash].js',
        chunkFileNames: (chunk) => (chunk.facadeModuleId?.includes('/locales/')
          ? `assets/admin-locale-${chunk.facadeModuleId.split('/locales/')[1].split('/')[0]}-[hash].js`
          : 'assets/admin-[name]-[hash].js'),
        assetFileNames: 'assets/admin-[name]-[hash][extname]',
      },
    },
  },
});
