import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// A host's configuration as a new user writes it: nothing Signet-specific.
export default defineConfig({ plugins: [react()] });
