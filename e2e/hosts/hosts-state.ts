/** One document per test, so that the tests can run side by side. */
export const DOCUMENTS = ['vite19', 'override', 'vite18', 'html'] as const;

/** What global-setup.ts started, handed to the tests in SIGNET_HOSTS_STATE. */
export interface HostsState {
  /** The Signet server. */
  apiUrl: string;
  /** Allowed for every host origin below. */
  pk: string;
  /** Reads submissions back. */
  sk: string;
  documents: Record<(typeof DOCUMENTS)[number], string>;
  /** Each host's origin: the Vite React 19 build, the React 18 one, the plain HTML page. */
  hosts: Record<'vite19' | 'vite18' | 'html', string>;
}

export function hostsState(): HostsState {
  return JSON.parse(process.env.SIGNET_HOSTS_STATE!) as HostsState;
}
