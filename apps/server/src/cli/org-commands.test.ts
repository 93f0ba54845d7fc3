import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliStore, type CliStore } from '../../test/support/cli.js';
import { openStorage } from '../storage/index.js';
import { findOrganizationBySlug, findOrganizationProfile } from '../storage/queries/organizations.js';

/* `signet org show|set` as an operator runs them, on a store of their own (docs/email.md, "Branding"). */

let store: CliStore;
beforeAll(async () => {
  store = await cliStore('signet-cli-org-', {});
});
afterAll(() => store.close());

async function stored() {
  const storage = await openStorage(store.databaseUrl);
  try {
    const organization = (await findOrganizationBySlug(storage.db.query, 'acme'))!;
    return await findOrganizationProfile(storage.db.query, organization.id);
  } finally {
    await storage.close();
  }
}

describe('signet org', { timeout: 90_000 }, () => {
  it('shows the name and no colour, sets a colour and a name, and clears the colour', async () => {
    const shown = await store.signet('org', 'show', '--org', 'acme');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^Organization acme \(org_\w+\): Acme\n {2}Brand colour: none \(the default accent\)\n$/);

    const set = await store.signet('org', 'set', '--org', 'acme', '--name', 'Acme Lettings', '--brand-color', '#0A7D4F');
    expect(set.stderr).toBe('');
    expect(set.stdout).toContain('Organization acme');
    expect(set.stdout).toContain(': Acme Lettings\n');
    expect(set.stdout).toContain('Brand colour: #0a7d4f (text on it: #ffffff)');

    const json = await store.signet('org', 'show', '--org', 'acme', '--json');
    const profile = JSON.parse(json.stdout) as { id: string };
    expect(profile).toEqual({ id: expect.stringMatching(/^org_/), name: 'Acme Lettings', brandColor: '#0a7d4f' });
    expect(await stored()).toEqual(profile);

    const light = await store.signet('org', 'set', '--org', 'acme', '--brand-color', '#ffd400');
    expect(light.stdout).toContain('Brand colour: #ffd400 (text on it: #000000)');

    const cleared = await store.signet('org', 'set', '--org', 'acme', '--clear-brand-color', '--json');
    expect(JSON.parse(cleared.stdout)).toEqual({ id: profile.id, name: 'Acme Lettings', brandColor: null });
  });

  it('refuses what PATCH /organization refuses, naming the option, and changes nothing', async () => {
    const before = await stored();
    const refusals: Array<[string[], RegExp]> = [
      [['--brand-color', 'red'], /^signet: --brand-color "red": must be "#" followed by six hexadecimal digits/],
      [['--brand-color', '#fff;}body{'], /^signet: --brand-color "#fff;}body{": must be "#"/],
      [['--brand-color', 'url(https://evil.example/x)'], /^signet: --brand-color .*: must be "#"/],
      [['--name', ''], /^signet: --name "":/],
      [['--name', 'x'.repeat(201)], /^signet: --name "x+":/],
      [['--name', 'Acme\nBcc: someone@example.com'], /^signet: --name .*: must be one line without control characters/],
      [['--brand-color', '#0a7d4f', '--clear-brand-color'], /^signet: --brand-color and --clear-brand-color exclude each other/],
      [[], /^signet: nothing to change: give --name, --brand-color or --clear-brand-color/],
    ];
    for (const [args, message] of refusals) {
      const result = await store.signet('org', 'set', '--org', 'acme', ...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stdout).toBe('');
    }
    expect(await stored()).toEqual(before);

    for (const command of [['show'], ['set', '--name', 'Globex']]) {
      const unknown = await store.signet('org', ...command, '--org', 'globex');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toBe('signet: no organization globex\n');
    }
  });
});
