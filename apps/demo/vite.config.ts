import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The demo page is a static build served by the demo's own backend (server/demo-app.ts).
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/demo-api': process.env.DEMO_BACKEND ?? 'http://127.0.0.1:5173' } },
});
