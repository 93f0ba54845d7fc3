import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { resolveSecret } from './secret.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-secret-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('resolveSecret', () => {
  it('generates one beside the embedded database, private to its owner, and keeps it across starts', async () => {
    const config = loadConfig({ DATABASE_URL: `file:${join(dir, 'a', 'x.db')}` });
    const first = await resolveSecret(config);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(await resolveSecret(config)).toBe(first);
    expect((await stat(join(dir, 'a', 'signet.secret'))).mode & 0o777).toBe(0o600);
  });

  it('uses SIGNET_SECRET when given, and requires it with PostgreSQL', async () => {
    expect(await resolveSecret(loadConfig({ SIGNET_SECRET: 's'.repeat(40) }))).toBe('s'.repeat(40));
    await expect(resolveSecret(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }))).rejects.toThrow(/SIGNET_SECRET is required/);
  });

  it('refuses a bad configuration naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ SIGNET_SECRET: 'short' })).toThrow(/SIGNET_SECRET/);
  });
});
