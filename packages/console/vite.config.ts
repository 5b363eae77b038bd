import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dev server proxies every server path to `npm start` on 8787, so the console runs against a real Basalt.
const server = 'http://127.0.0.1:8787';

// scripts/build.mjs runs production builds with NODE_ENV=production, also when a test runner starts them.
export default defineConfig(() => ({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  server: {
    port: 5173,
    proxy: {
      // A regular expression, not the prefix '/api': the console has its own page at /api (API keys).
      '^/api/': server,
      '/auth/v1': server,
      '/rest/v1': server,
      '/functions/v1': server,
      '/.well-known': server,
      '/ws': { target: server, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    rolldownOptions: {
      output: {
        // Long-lived libraries in their own chunks, so a console release does not invalidate them in caches.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 3 },
            { name: 'supabase', test: /node_modules[\\/]@supabase[\\/]/, priority: 2 },
            {
              name: 'ui',
              test: /node_modules[\\/](@radix-ui|radix-ui|@floating-ui|lucide-react)[\\/]/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
}));
