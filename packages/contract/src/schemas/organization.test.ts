import { describe, expect, it } from 'vitest';
import { BrandColorSchema, UpdateOrganizationRequestSchema } from './organization.js';

describe('BrandColorSchema', () => {
  it('takes # and six hex digits, in either case, and nothing else', () => {
    for (const color of ['#0a7d4f', '#0A7D4F', '#000000', '#ffffff']) expect(BrandColorSchema.safeParse(color).success, color).toBe(true);
    const refused = ['red', '#fff', '#0a7d4f80', '0a7d4f', '#0a7d4g', ' #0a7d4f', '#0a7d4f\n', '#fff;}body{', 'url(x)', 'rgb(1,2,3)', 'var(--x)', ''];
    for (const color of refused) expect(BrandColorSchema.safeParse(color).success, color).toBe(false);
  });
});

describe('UpdateOrganizationRequestSchema', () => {
  it('takes a trimmed one-line name and a colour or null, at least one, and no other member', () => {
    expect(UpdateOrganizationRequestSchema.parse({ name: ' Acme ', brandColor: null })).toEqual({ name: 'Acme', brandColor: null });
    for (const body of [{}, { name: '' }, { name: 'a'.repeat(201) }, { name: 'A\nB' }, { brandColor: 'red' }, { slug: 'acme' }]) {
      expect(UpdateOrganizationRequestSchema.safeParse(body).success, JSON.stringify(body)).toBe(false);
    }
  });
});
