import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
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
});
