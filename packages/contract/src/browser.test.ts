import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

describe('the contract package in a browser', () => {
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
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.startsWith('node:'))).toBe(false);
    expect(result.outputFiles[0]!.text).toContain('crypto.subtle.digest');
  });
});
