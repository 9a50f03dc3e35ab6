import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The web app lives in web/ and is built into dist/web, which the Fastify server serves.
export default defineConfig({
  root: 'web',
  plugins: [react(), tailwindcss()],
  // exceljs (~930 kB) is its own lazy chunk, loaded only when someone imports a workbook.
  build: { outDir: '../dist/web', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1000 },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:5000' },
  },
});
