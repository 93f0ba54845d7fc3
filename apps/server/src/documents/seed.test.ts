import { afterEach, describe, expect, it } from 'vitest';
import type { Storage } from '../storage/types.js';
import { sqlite } from '../../test/support/harness.js';
import { DEMO_SLUG, prepareDemoRun } from './seed.js';
import { findOrganizationBySlug } from '../storage/queries/organizations.js';

let storage: Storage | undefined;
afterEach(() => storage?.close());

describe('prepareDemoRun', () => {
  it('seeds the demo the first time, then keeps its documents and issues fresh keys', async () => {
    storage = await sqlite.open();
    const first = await prepareDemoRun(storage, { sk: true });
    expect(first.seeded).toBe(true);
    expect(first.keys.pk).toMatch(/^pk_/);
    expect(first.keys.sk).toMatch(/^sk_/);
    expect(first.documents).toHaveLength(3);

    const again = await prepareDemoRun(storage);
    expect(again.seeded).toBe(false);
    expect(again.keys.pk).not.toBe(first.keys.pk);
    expect(again.keys.sk).toBeUndefined();
    expect(new Set(again.documents.map((document) => document.id))).toEqual(new Set(first.documents.map((document) => document.id)));
    expect((await prepareDemoRun(storage, { sk: true })).keys.sk).toMatch(/^sk_/);
    expect((await findOrganizationBySlug(storage.db.query, DEMO_SLUG))?.name).toBe('Demo Company');
  });
});
