import { startLiveServer } from '@signet/server/testing';
import { build } from 'esbuild';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build as viteBuild, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';

describe('the client package in a browser', () => {
  it('bundles for the browser platform with no Node built-ins', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    expect(Object.keys(result.metafile.inputs).filter((path) => path.startsWith('node:'))).toEqual([]);
    expect(result.outputFiles[0]!.text).toContain('X-API-Key');
  });

  it('parses answers without building code through eval once bundled, so host pages with a strict CSP work', async () => {
    // Bundled by Vite as a host page bundles it (modules without side effects dropped), then run where a `document`
    // exists: zod must have been told to parse without `new Function` before the contract built its first schema.
    const output = (await viteBuild({
      configFile: false,
      logLevel: 'silent',
      build: { write: false, minify: false, lib: { entry: fileURLToPath(new URL('./index.ts', import.meta.url)), formats: ['es'], fileName: 'client' } },
    })) as Rolldown.RolldownOutput[];
    const chunk = output[0]!.output.find((item) => item.type === 'chunk')!;
    const directory = await mkdtemp(join(tmpdir(), 'signet-client-'));
    const file = join(directory, 'client.mjs');
    await writeFile(file, chunk.code);

    // The real server's answer, replayed inside the watch so that only the bundled client's code runs there.
    const server = await startLiveServer();
    const documentId = (await server.createDocument({ pages: 1 })).id;
    const answer = await fetch(`${server.url}/sdk/documents/${documentId}`, { headers: { 'X-API-Key': await server.createKey() } });
    const body = await answer.text();
    await server.close();
    expect(answer.status).toBe(200);

    const compiled: string[] = [];
    const original = globalThis.Function;
    const trap = new Proxy(original, {
      construct: (target, args: string[], newTarget) => (compiled.push(args.join(', ')), Reflect.construct(target, args, newTarget) as object),
      apply: (target, self, args: string[]) => (compiled.push(args.join(', ')), Reflect.apply(target, self, args) as unknown),
    });
    Object.assign(globalThis, { document: {}, Function: trap });
    try {
      const { createSigningClient } = (await import(pathToFileURL(file).href)) as typeof import('./index.js');
      const client = createSigningClient({
        apiKey: 'pk_test_0123456789abcdefghij',
        baseUrl: 'https://sign.example.com',
        fetch: async () => new Response(body, { headers: { 'Content-Type': 'application/json' } }),
      });
      expect((await client.getDocument(documentId)).metadata.id).toBe(documentId);
    } finally {
      Object.assign(globalThis, { Function: original });
      delete (globalThis as { document?: unknown }).document;
      await rm(directory, { recursive: true, force: true });
    }
    expect(compiled).toEqual([]);
  });
});
