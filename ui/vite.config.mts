import { defineConfig } from 'vitest/config';

// The dashboard (docs/architecture.md, "Dashboard"): built into ui/dist by `npm install` (bin/build.js) and served by
// the app listener at `/`, same origin as /api. Hashed file names: assets are cached for a year.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets', sourcemap: false, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  test: { environment: 'jsdom', include: ['src/**/*.test.tsx', 'src/**/*.test.ts'], setupFiles: ['src/test/setup-dom.ts'] },
});
