import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSignet } from '../support/cli.js';
import { buildPayload } from '../support/harness.js';
import { startServerProcess, type ServerProcess } from '../hardening/server-process.js';
import { CODE, ROOT, SHELL, allSnippets, directive, documentationFiles, extractSnippets, fileSnippets, headingsAndLinks, isSkipped, type Snippet } from './snippets.js';

/*
 * The documentation works as written: every shell block of README.md and docs/*.md (docs/decisions.md aside) runs
 * against the real server, `signet serve` built, on a fresh embedded store seeded as `pnpm start` seeds it, from a
 * folder that has the repository's examples/ as the docs' commands expect. The blocks of one file run in order in
 * bash with `set -e`, each seeing the shell variables the ones before it set (`DOC=$(curl …)`); `pnpm signet` is the
 * built command line on that store. Placeholders are the live server's: the URL, the seeded pk and sk keys, and for
 * `doc_…` a document made for the block (with `key_…` a session of it, `<documentUrl>` its URL). A block fails when
 * it exits non-zero or when an answer carries an error code the block does not name (its comments say which
 * refusals it shows). Blocks that cannot run here say why in the Markdown (`<!-- snippet: skip (…) -->`, see
 * ./snippets.ts); the first test holds every shell and TypeScript block to that.
 */

// Generous for a machine running the whole suite at once; alone, the file takes about half a minute.
const BLOCK_TIMEOUT_MS = 60_000;

let dir: string;
let server: ServerProcess;
let env: Record<string, string>;
let keys: { pk: string; sk: string };

/** The sample files the docs name, as `curl -F file=@examples/…` reads them. */
const EXAMPLES = join(ROOT, 'examples');

async function api(path: string, init: RequestInit & { key?: string } = {}): Promise<any> {
  const headers = new Headers(init.headers);
  headers.set('X-API-Key', init.key ?? keys.sk);
  const response = await fetch(`${server.url}${path}`, { ...init, headers });
  const body = await response.json();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function upload(kind: 'contract' | 'lease' | 'draft'): Promise<string> {
  const form = new FormData();
  const file = (name: string) => readFile(join(EXAMPLES, name));
  form.set('file', new Blob([await file(kind === 'lease' ? 'lease.pdf' : 'contract.pdf')], { type: 'application/pdf' }), 'document.pdf');
  if (kind === 'contract') form.set('fields', new Blob([await file('fields.json')]));
  if (kind === 'lease') {
    form.set('fields', new Blob([await file('lease-fields.json')]));
    form.set('signers', new Blob([await file('signers.json')]));
    form.set('signingOrder', 'sequential');
  }
  const created = await api(kind === 'draft' ? '/documents?draft=true' : '/documents', { method: 'POST', body: form });
  return created.data.id as string;
}

/** Submits a document as its (only) signer would, then waits until it is sealed. */
async function signAndSeal(documentId: string): Promise<void> {
  const { data: document } = await api(`/documents/${documentId}`);
  const payload = await buildPayload(document);
  await api('/sdk/documents/submit', {
    method: 'POST',
    body: JSON.stringify(payload),
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { data } = await api(`/documents/${documentId}`);
    if (data.sealing?.status === 'sealed') return;
    if (data.sealing?.status === 'failed' || Date.now() > deadline) throw new Error(`${documentId} was not sealed: ${JSON.stringify(data.sealing)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function bash(script: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd, env, timeout: BLOCK_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** `pnpm signet …` as the built command line (the docs' `pnpm signet` builds it first, then runs the same file). */
const PRELUDE = `pnpm() { if [ "$1" = signet ]; then shift; node "${join(ROOT, 'apps/server/dist/cli/main.js')}" "$@"; else command pnpm "$@"; fi; }`;

/** The shell variables a file's blocks have set so far, carried from one block to the next. */
function stateFile(file: string): string {
  return join(dir, `${file.replaceAll('/', '_')}.state`);
}

/** Where a file's blocks run: a folder of its own (they write files such as signed.pdf), with examples/ in it. */
async function workDir(file: string): Promise<string> {
  const work = join(dir, file.replaceAll('/', '_'));
  await mkdir(work, { recursive: true });
  await symlink(EXAMPLES, join(work, 'examples')).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return work;
}

async function shellVariable(file: string, name: string): Promise<string> {
  const { stdout } = await bash(`[ -f "${stateFile(file)}" ] && source "${stateFile(file)}"; printf %s "$${name}"`, dir);
  return stdout;
}

/** The block with the live server's values in place of the docs' placeholders. */
async function prepare(snippet: Snippet): Promise<{ code: string; documentId?: string }> {
  const port = new URL(server.url).port;
  let code = snippet.code
    .replaceAll('http://127.0.0.1:3000', server.url)
    .replaceAll('localhost:3000', `127.0.0.1:${port}`)
    .replaceAll('sk_…', keys.sk)
    .replaceAll('pk_…', keys.pk);
  let documentId: string | undefined;
  if (code.includes('doc_…')) {
    const kind = directive(snippet, 'lease') ? 'lease' : directive(snippet, 'draft') ? 'draft' : 'contract';
    documentId = await upload(kind);
    if (code.includes('/builder-sessions/key_…')) {
      const { data } = await api(`/documents/${documentId}/builder-sessions`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
      code = code.replaceAll('key_…', data.id);
    } else if (code.includes('/sessions/key_…')) {
      const signerId = kind === 'lease' ? 'tenant' : undefined;
      const { data } = await api(`/documents/${documentId}/sessions`, { method: 'POST', body: JSON.stringify({ signerId }), headers: { 'Content-Type': 'application/json' } });
      code = code.replaceAll('key_…', data.id);
    }
    if (code.includes('<documentUrl>')) {
      const document = await api(`/sdk/documents/${documentId}`, { key: keys.pk });
      code = code.replaceAll('<documentUrl>', document.documentUrl);
    }
    code = code.replaceAll('doc_…', documentId);
  }
  if (code.includes('<pagination.cursor>')) {
    const { pagination } = await api('/documents?limit=1');
    code = code.replaceAll('<pagination.cursor>', pagination.cursor);
  }
  return { code, documentId };
}

async function run(snippet: Snippet): Promise<void> {
  const work = await workDir(snippet.file);
  const { code, documentId } = await prepare(snippet);
  const sign = directive(snippet, 'sign');
  if (sign) {
    const target = sign.variable ? await shellVariable(snippet.file, sign.variable) : documentId;
    expect(target, `${snippet.file}:${snippet.line}: sign ${sign.variable ?? 'doc_…'} names no document`).toMatch(/^doc_/);
    await signAndSeal(target!);
  }
  if (directive(snippet, 'payload')) {
    const { data: document } = await api(`/documents/${documentId}`);
    await writeFile(join(work, 'payload.json'), JSON.stringify(await buildPayload(document)));
  }
  const state = stateFile(snippet.file);
  const script = [
    'set -e',
    PRELUDE,
    '__base=" $(compgen -v | tr \'\\n\' \' \') "',
    `[ -f "${state}" ] && source "${state}"`,
    code,
    `for __v in $(compgen -v); do case "$__base" in *" $__v "*) ;; *) case "$__v" in [A-Z]*) declare -p "$__v" ;; esac ;; esac; done > "${state}"`,
  ].join('\n');
  const result = await bash(script, work);
  const where = `${snippet.file}:${snippet.line}`;
  expect(result.code, `${where} exited ${result.code}:\n${result.stdout}\n${result.stderr}`).toBe(0);
  const codes = new Set([...result.stdout.matchAll(/"code":"([A-Z_]+)"/g)].map((match) => match[1]!));
  for (const errorCode of codes) {
    expect(snippet.code, `${where} answered ${errorCode}, which the block does not show:\n${result.stdout}`).toContain(errorCode);
  }
}

/**
 * Runs a TypeScript block with tsx from a folder whose node_modules has the workspace's `@signet/api` (its own
 * dependencies resolve from packages/api, where it really is), as a program that depends on it would.
 */
async function runTypeScript(snippet: Snippet): Promise<void> {
  const folder = join(dir, `ts-${snippet.line}`);
  await mkdir(join(folder, 'node_modules', '@signet'), { recursive: true });
  await symlink(join(ROOT, 'packages/api'), join(folder, 'node_modules/@signet/api'));
  const { code } = await prepare(snippet);
  await writeFile(join(folder, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  await writeFile(join(folder, 'snippet.ts'), code);
  const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(join(ROOT, 'node_modules/.bin/tsx'), ['snippet.ts'], { cwd: folder, env: { ...env, SIGNET_SK: keys.sk }, timeout: BLOCK_TIMEOUT_MS }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
  expect(result.code, `${snippet.file}:${snippet.line} exited ${result.code}:\n${result.stdout}\n${result.stderr}`).toBe(0);
  // The seeded documents: the block lists them (a completed one with its submission) and the client's rate limit.
  expect(result.stdout).toMatch(/remaining/);
}

/** What the docs' fragments take from the host's own code. */
const HOST_DECLARATIONS = `declare const app: import('hono').Hono;
declare function fetchSignedPdf(documentId: string): Promise<void>;
`;

/**
 * Compiles the blocks, strict, as a project that depends on `@signet/api` (the workspace's, as sources), hono and
 * Node's types would, each block a module of its own.
 */
async function typecheck(snippets: Snippet[]): Promise<void> {
  expect(snippets.length).toBeGreaterThan(0);
  const folder = join(dir, 'typecheck');
  await mkdir(join(folder, 'node_modules', '@signet'), { recursive: true });
  await symlink(join(ROOT, 'packages/api'), join(folder, 'node_modules/@signet/api'));
  await symlink(join(ROOT, 'apps/server/node_modules/hono'), join(folder, 'node_modules/hono'));
  await mkdir(join(folder, 'node_modules', '@types'));
  await symlink(join(ROOT, 'node_modules/@types/node'), join(folder, 'node_modules/@types/node'));
  const files = snippets.map((snippet) => `${snippet.file.replaceAll('/', '_')}-${snippet.line}.ts`);
  await Promise.all(snippets.map((snippet, i) => writeFile(join(folder, files[i]!), snippet.code)));
  await writeFile(join(folder, 'host.d.ts'), HOST_DECLARATIONS);
  await writeFile(join(folder, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  const base = JSON.parse(readFileSync(join(ROOT, 'tsconfig.base.json'), 'utf8'));
  await writeFile(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...base.compilerOptions, types: ['node'] }, files: ['host.d.ts', ...files] }));
  const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [join(ROOT, 'node_modules/typescript-native/bin/tsc'), '-p', 'tsconfig.json'], { cwd: folder, timeout: 170_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
  expect(result.stdout + result.stderr, files.join(', ')).toBe('');
  expect(result.code).toBe(0);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-snippets-'));
  const store = { DATABASE_URL: `file:${join(dir, 'signet.db')}`, SIGNET_WEBHOOKS_ALLOW_PRIVATE: 'true', PDF_WORKERS: '2', LOG_LEVEL: 'warn' };
  const seeded = await runSignet(['seed', '--json'], { env: store });
  expect(seeded.code, seeded.stderr).toBe(0);
  const { keys: seededKeys } = JSON.parse(seeded.stdout);
  keys = { pk: seededKeys.pk.key, sk: seededKeys.sk.key };
  server = await startServerProcess({ ...store, SEAL_POLL_MS: '100' });
  env = { ...(process.env as Record<string, string>), ...store, API: server.url, SK: keys.sk, PK: keys.pk };
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the documentation', () => {
  it('marks every shell and TypeScript block it does not run, with a reason', () => {
    const unrunnable = allSnippets().filter((snippet) => CODE.has(snippet.lang) && !isSkipped(snippet) && !directive(snippet, 'node') && !directive(snippet, 'typecheck'));
    expect(unrunnable.map((snippet) => `${snippet.file}:${snippet.line} (${snippet.lang})`)).toEqual([]);
    const shell = allSnippets().filter((snippet) => SHELL.has(snippet.lang));
    expect(shell.filter((snippet) => !isSkipped(snippet)).length).toBeGreaterThan(10);
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    const anchors = new Map<string, Set<string>>();
    const anchorsOf = (path: string) => {
      if (!anchors.has(path)) anchors.set(path, headingsAndLinks(readFileSync(path, 'utf8')).anchors);
      return anchors.get(path)!;
    };
    for (const file of documentationFiles()) {
      const { links } = headingsAndLinks(readFileSync(join(ROOT, file), 'utf8'));
      for (const { url, line } of links) {
        if (/^[a-z]+:/i.test(url)) continue;
        const [path, hash] = url.split('#') as [string, string | undefined];
        const target = path ? join(dirname(join(ROOT, file)), path) : join(ROOT, file);
        if (!existsSync(target)) broken.push(`${file}:${line}: ${url} (no such file)`);
        else if (hash && target.endsWith('.md') && !anchorsOf(target).has(hash)) {
          broken.push(`${file}:${line}: ${url} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('extracts blocks with their directives and refuses an unknown one', () => {
    const markdown = ['Text', '', '<!-- snippet: skip (starts a server) -->', '```sh', 'pnpm start', '```', '', '```bash', 'echo hi', '```'].join('\n');
    const snippets = extractSnippets('x.md', markdown);
    expect(snippets.map((s) => [s.lang, s.code, s.directives.map((d) => d.kind)])).toEqual([
      ['sh', 'pnpm start', ['skip']],
      ['bash', 'echo hi', []],
    ]);
    expect(() => extractSnippets('x.md', '<!-- snippet: skp (typo) -->\n```sh\nls\n```')).toThrow(/unknown snippet directive/);
    expect(() => extractSnippets('x.md', '<!-- snippet: skip -->\n```sh\nls\n```')).toThrow(/needs its reason/);
  });

  it.concurrent.each(allSnippets().filter((snippet) => directive(snippet, 'node')).map((snippet) => [`${snippet.file}:${snippet.line}`, snippet] as const))(
    '%s: the TypeScript runs as written',
    async (_where, snippet) => {
      await runTypeScript(snippet);
    },
    120_000,
  );

  it.concurrent('the TypeScript blocks marked typecheck compile', async () => {
    await typecheck(allSnippets().filter((snippet) => directive(snippet, 'typecheck')));
  }, 180_000);

  // The files run side by side, the blocks of one file in order (each may use what the ones before it set).
  const runnable = documentationFiles()
    .map((file) => [file, fileSnippets(file).filter((snippet) => SHELL.has(snippet.lang) && !isSkipped(snippet))] as const)
    .filter(([, snippets]) => snippets.length > 0);
  it.concurrent.each(runnable)('%s: every shell block runs as written', async (_file, snippets) => {
    for (const snippet of snippets) await run(snippet);
  }, 180_000);
});
