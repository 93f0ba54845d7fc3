import { z } from 'zod';

/**
 * zod, as every schema of the contract is built with it. In a browser, zod validates without compiling parsers
 * through `new Function`: host pages may forbid eval with their Content-Security-Policy (where zod's probe for it
 * would report a violation), and for the few answers a client parses, compiling costs more than it saves (about
 * 20 ms on the first parse of a document on the path to the first page). On a server the compiled parsers stay.
 * zod reads the setting when a schema is built, so it is set here, before any schema of the contract exists; it is
 * zod's global setting, so a host page that bundles the same zod gets it too.
 */
if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
