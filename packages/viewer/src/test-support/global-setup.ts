import { closeLiveServer } from './commands.js';
import { closeLiveMailServer } from './verification-commands.js';

/** Closes the real server the browser-test commands started (so Vitest's process can exit). */
export default function setup() {
  return () => Promise.all([closeLiveServer(), closeLiveMailServer()]);
}
