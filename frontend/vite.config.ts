import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const contractsSource = fileURLToPath(new URL('../contracts/src/', import.meta.url));

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    // The frontend compiles the contracts from their TypeScript source.
    alias: { '@ppr/contracts': `${contractsSource}index.ts` },
  },
  build: {
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // The contracts are declarations only (constants and zod schemas). Marking them free of side
        // effects lets a page that needs only the business profile leave zod out of its chunk.
        moduleSideEffects: (id: string) => !id.startsWith(contractsSource),
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
  },
});
