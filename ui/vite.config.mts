import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';

/** The app's colours: Mantine's light body (white) and its dark body; the icons are indigo. */
const LIGHT_BACKGROUND = '#ffffff';

// The dashboard (docs/architecture.md, "Dashboard"): built into ui/dist by `npm install` (bin/build.js) and served by
// the app listener at `/`, same origin as /api. Hashed file names: assets are cached for a year.
// It is an installable app (docs/pwa.md): a web app manifest and a service worker (src/sw.ts) that Workbox fills with
// the list of files to precache (the app shell), and that shows Web Push pages. /api, /hooks and /ingest never go through
// a cache.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets', sourcemap: false, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  plugins: process.env.VITEST
    ? []
    : [
        VitePWA({
          strategies: 'injectManifest',
          srcDir: 'src',
          filename: 'sw.ts',
          // A new build's worker takes over at once (skipWaiting + clientsClaim in src/sw.ts); the page reloads
          // when it does (src/pwa/register.ts).
          registerType: 'autoUpdate',
          // Registered from our own code (src/pwa/register.ts): an inline script would break the Content-Security-Policy.
          injectRegister: false,
          injectManifest: {
            // The app shell: the page, every script and style chunk (pages load lazily, offline too), the icons.
            globPatterns: ['**/*.{html,js,css,png,svg,webmanifest}'],
            globIgnores: ['sw.js'],
            maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
          },
          manifestFilename: 'manifest.webmanifest',
          manifest: {
            id: '/',
            name: 'Klaxon',
            short_name: 'Klaxon',
            description: 'Incidents, on-call and pages from Klaxon',
            start_url: '/',
            scope: '/',
            display: 'standalone',
            theme_color: LIGHT_BACKGROUND,
            background_color: LIGHT_BACKGROUND,
            icons: [
              { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
              { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
              { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
            ],
          },
        }),
      ],
  // A generous per-test limit: a Mantine form rendered in jsdom takes seconds on a loaded 2-core machine, and a
  // timeout there says nothing about the dashboard (speed is measured in `npm run bench -- --dashboard-only`).
  test: { environment: 'jsdom', include: ['src/**/*.test.tsx', 'src/**/*.test.ts'], setupFiles: ['src/test/setup-dom.ts'], testTimeout: 30_000 },
});
