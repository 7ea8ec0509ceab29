import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit tests for the pure helpers (no DOM): the rules the transcript and delegation UI follow,
// and the web app server's own (server/).
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: { include: ['src/**/*.test.ts', 'server/**/*.test.mjs'] },
});
