/** One document per test, so that the tests can run side by side. */
export const DOCUMENTS = ['vite19', 'override', 'vite18', 'html', 'next', 'csp'] as const;

/** What global-setup.ts started, handed to the tests in SIGNET_HOSTS_STATE. */
export interface HostsState {
  /** The Signet server. */
  apiUrl: string;
  /** Allowed for every host origin below. */
  pk: string;
  /** Reads submissions back. */
  sk: string;
  documents: Record<(typeof DOCUMENTS)[number], string>;
  /** Each host's origin: the Vite React 19 build (plain, and again with a strict CSP), React 18, plain HTML, Next.js. */
  hosts: Record<'vite19' | 'vite18' | 'html' | 'csp' | 'next', string>;
  /** What `next start` printed. */
  nextLog: string;
  /** The registry test (registry-setup.ts): where Signet was published, and the host app that installed it. */
  registry?: { url: string; appDir: string; version: string };
}

export function hostsState(): HostsState {
  return JSON.parse(process.env.SIGNET_HOSTS_STATE!) as HostsState;
}

/** The strict policy: no inline script or style, no eval; the API only where it must be. */
export function cspFor(api: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${api}`,
    "style-src 'self'",
    `img-src 'self' ${api}`,
    `connect-src ${api}`,
    "worker-src 'self' blob:",
  ].join('; ');
}
