import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'hono';
import { ApiError } from '../errors.js';
import type { AppEnv } from '../http/env.js';
import { etagMatches } from '../http/file-response.js';
import { sendError } from '../http/envelope.js';
import type { SignetApp } from './openapi.js';

export interface EmbedScriptOptions {
  /** The script-tag build of `@signet/embed` (default: that package's `dist/script`, made by its `build`). */
  dir?: string;
}

/** What `embed.sri.json` (`builder.sri.json`) beside the build says: the version and the hash of `embed.js` (`builder.js`). */
interface EmbedManifest {
  version: string;
  integrity: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};
// The files a build holds; nothing else in the folder is served.
const SERVED = /^((embed|builder)\.js|(embed|builder)\.js\.map|(embed|builder)\.sri\.json|pdf\.worker\.min\.mjs|caveat-[a-z-]+-400-normal\.woff2)$/;
/** The scripts of the build, each with its manifest: the signing viewer's and the builder's (its own script). */
type Script = 'embed' | 'builder';
const IMMUTABLE = 'public, max-age=31536000, immutable';
// The unversioned URL follows new releases within minutes.
const SHORT = 'public, max-age=300';

/**
 * `packages/embed/dist/script` of this checkout (the server runs from the repository, as `signet serve`): found by
 * path, not as a dependency, since `@signet/embed` tests against this server and a dependency would close a cycle.
 */
function defaultDir(): string {
  return fileURLToPath(new URL('../../../../packages/embed/dist/script/', import.meta.url));
}

/** Files read once per build (a rebuild changes their modification time), each with its strong ETag. */
function fileCache(dir: string) {
  const files = new Map<string, Promise<{ mtimeMs: number; body: Buffer; etag: string }>>();
  return async function read(name: string) {
    const path = join(dir, name);
    const { mtimeMs } = await stat(path);
    let file = files.get(name);
    if (!file || (await file).mtimeMs !== mtimeMs) {
      file = readFile(path).then((body) => ({
        mtimeMs,
        body,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
      }));
      files.set(name, file);
    }
    return file;
  };
}

function notBuilt(script: Script = 'embed'): ApiError {
  return new ApiError('NOT_FOUND', `The ${script} script is not built on this server (pnpm --filter @signet/embed build)`);
}

function missing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * `GET /embed/<version>/<file>`: the script-tag build of `@signet/embed` (`embed.js`, `builder.js`, pdf.js's
 * worker, the handwriting font, their `.sri.json` manifests), cacheable for a year; `GET /embed.js` and
 * `GET /builder.js`: a redirect to the current version's script, cached for five minutes (the script loads its assets relative to where it ended up). Both may be used by
 * any origin (CORS `*`, `Cross-Origin-Resource-Policy: cross-origin`), so a page can load the script with
 * `integrity` and `crossorigin`. Not part of the API contract, like `/healthz`; unknown files get the error envelope.
 * @example registerEmbedRoutes(app); // <script type="module" src="https://sign.example.com/embed.js"></script>
 */
export function registerEmbedRoutes(app: SignetApp, options: EmbedScriptOptions = {}): void {
  let dir: string | undefined = options.dir;
  let read: ReturnType<typeof fileCache> | undefined;
  const files = () => (read ??= fileCache((dir ??= defaultDir())));
  async function manifest(script: Script = 'embed'): Promise<EmbedManifest | undefined> {
    try {
      return JSON.parse((await files()(`${script}.sri.json`)).body.toString('utf8')) as EmbedManifest;
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }
  function crossOrigin(c: Context<AppEnv>, cacheControl: string): void {
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    c.header('Cache-Control', cacheControl);
  }

  for (const script of ['embed', 'builder'] as const) {
    app.get(`/${script}.js`, async (c) => {
      const current = await manifest(script);
      if (!current) return sendError(c, notBuilt(script));
      crossOrigin(c, SHORT);
      return c.redirect(`/embed/${encodeURIComponent(current.version)}/${script}.js`, 302);
    });
  }

  app.get('/embed/:version/:file', async (c) => {
    const { version, file: name } = c.req.param();
    const current = await manifest();
    if (!current) return sendError(c, notBuilt());
    if (version !== current.version || !SERVED.test(name)) {
      return sendError(c, new ApiError('NOT_FOUND', `No embed file ${name} in version ${version} (this server has ${current.version})`));
    }
    // The builder's files come from a build of their own (`vite build --mode builder`), which a server may lack.
    const script: Script | undefined = name === 'embed.js' ? 'embed' : name === 'builder.js' ? 'builder' : undefined;
    const integrity = script === 'builder' ? (await manifest('builder'))?.integrity : current.integrity;
    if (script && !integrity) return sendError(c, notBuilt(script));
    const file = await files()(name).catch((error: unknown) => {
      if (missing(error)) return undefined;
      throw error;
    });
    if (!file) return sendError(c, new ApiError('NOT_FOUND', `No embed file ${name} in this server's build`));
    crossOrigin(c, IMMUTABLE);
    c.header('ETag', file.etag);
    if (etagMatches(c, file.etag)) return c.body(null, 304);
    if (script) c.header('X-Signet-Integrity', integrity!);
    return c.body(new Uint8Array(file.body), 200, { 'Content-Type': CONTENT_TYPES[extname(name)] ?? 'application/octet-stream' });
  });
}
