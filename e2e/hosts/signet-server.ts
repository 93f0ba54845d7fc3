/**
 * The Signet server of the host tests, run by global-setup.ts as a child process (`node --import tsx`): the real
 * app on a loopback port and a fresh SQLite store, a pk key allowed for the host pages' origins (argv), an sk key
 * to read submissions back, and `SIGNET_HOSTS_DOCUMENTS` documents of the sample agreement. It prints one JSON line
 * with all of them, then serves until it is sent SIGTERM.
 */
import { startLiveServer } from '@signet/server/testing';

const origins = process.argv.slice(2);
const server = await startLiveServer();
const pk = await server.createKey({ kind: 'pk', origins });
const sk = await server.createKey({ kind: 'sk' });
const documents: string[] = [];
for (let count = Number(process.env.SIGNET_HOSTS_DOCUMENTS ?? 1); count > 0; count -= 1) {
  documents.push((await server.createDocument()).id);
}
process.stdout.write(`${JSON.stringify({ url: server.url, pk, sk, documents })}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
