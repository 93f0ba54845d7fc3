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
        fetch: async () => new Response(JSON.stringify(sampleDocument), { headers: { 'Content-Type': 'application/json' } }),
      });
      expect((await client.getDocument(sampleDocument.metadata.id)).fields).toHaveLength(1);
    } finally {
      Object.assign(globalThis, { Function: original });
      delete (globalThis as { document?: unknown }).document;
      await rm(directory, { recursive: true, force: true });
    }
    expect(compiled).toEqual([]);
  });
});

const sampleDocument = {
  metadata: {
    id: 'doc_0123456789abcdefghij',
    filename: 'agreement.pdf',
    mimeType: 'application/pdf',
    pageCount: 1,
    fileSize: 2048,
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    version: 1,
    status: 'pending',
  },
  documentUrl: 'https://sign.example.com/sdk/documents/doc_0123456789abcdefghij/file?token=t',
  fields: [{ id: 'name', type: 'text', page: 1, x: 0.1, y: 0.1, width: 0.3, height: 0.05, required: true, editable: true, label: 'Name' }],
};
