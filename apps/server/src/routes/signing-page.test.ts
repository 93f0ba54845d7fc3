import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { signSigningLink } from '../documents/signing-link.js';
import { LEASE_SIGNERS, sampleLeaseFields } from '../pdf/sample.js';
import { ensureOrganization } from '../storage/queries/organizations.js';
import { SIGNING_PAGE_CSP } from './signing-page-html.js';
import { accentTheme, DARK_TEXT, LIGHT_TEXT } from './signing-page-theme.js';

/*
 * The hosted signing page in the organization's brand colour (docs/email.md, "Branding"): the accent and the text
 * on it in the page's one style sheet, whose hash the CSP names; the default page for an organization without one;
 * and no way for a stored value to become CSS. Through the real app, on both engines.
 */

/** The page's style sheet, as served. */
const styleOf = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
const hashOf = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
/** The CSP's directives without `style-src`, whose hash is the page's own. */
const withoutStyleSrc = (csp: string) => csp.split('; ').filter((directive) => !directive.startsWith('style-src '));
/** A client address of its own for each visit: the page's limit of visits per address is not what is tested here. */
let visits = 0;
const visitor = () => `198.51.100.${++visits}`;

describe.each(engines)('the hosted signing page in brand colours on $name', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  /** A lease of a new organization, with `brandColor` stored as it is (the API checks it first; the store does not). */
  async function pageOf(brandColor: string | null) {
    const organization = await ensureOrganization(t.storage.db.query, `page-${randomBytes(4).toString('hex')}`, 'Acme Lettings');
    await t.storage.db.query.updateTable('organizations').set({ brand_color: brandColor }).where('id', '=', organization.id).execute();
    const lease = await t.createDocument({ pages: 2, fields: sampleLeaseFields(2), signers: [...LEASE_SIGNERS], organizationId: organization.id });
    const token = signSigningLink(t.secret, { documentId: lease.id, signerId: 'tenant', expires: Math.floor(Date.now() / 1000) + 3600 });
    const response = await call(t, 'GET', `/sign/${token}`, { ip: visitor() });
    expect(response.status).toBe(200);
    const csp = response.headers.get('Content-Security-Policy')!;
    const html = await response.text();
    return { organization, csp, html, style: styleOf(html) };
  }

  it('an organization without a colour gets the default page and CSP', async () => {
    const page = await pageOf(null);
    expect(page.csp).toBe(SIGNING_PAGE_CSP);
    expect(page.style).toContain('--signet-accent: #2f5bea;');
    expect(page.style).not.toContain('--signet-accent-text');
    expect(page.html).toContain('<span class="org">from Acme Lettings</span>');
  });

  it('a dark brand colour: the accent with white text on it, in the one style sheet its CSP names by hash', async () => {
    const page = await pageOf('#0a7d4f');
    expect(page.style).toContain(`:root { --signet-accent: #0a7d4f; --signet-accent-text: ${LIGHT_TEXT}; --signet-field-bg: rgba(10, 125, 79, 0.07); }`);
    expect(page.style).toContain(`.bar { background: #0a7d4f; color: ${LIGHT_TEXT};`);
    expect(page.html.match(/<style>/g)).toHaveLength(1);
    expect(page.html).not.toMatch(/\sstyle=/);
    // As strict as the default: the same directives, style-src 'self' and this sheet's hash only.
    expect(page.csp).toContain(`style-src 'self' ${hashOf(page.style)};`);
    expect(withoutStyleSrc(page.csp)).toEqual(withoutStyleSrc(SIGNING_PAGE_CSP));
    expect(page.csp).not.toMatch(/unsafe-inline|unsafe-eval|nonce-|\*/);
    expect(page.csp).not.toBe(SIGNING_PAGE_CSP);
  });

  it("a light brand colour: a bar with black text, and the viewer's accent darkened to read on white", async () => {
    const page = await pageOf('#FFD400');
    const theme = accentTheme('#ffd400')!;
    expect(page.style).toContain(`.bar { background: #ffd400; color: ${DARK_TEXT};`);
    expect(theme.viewerAccent).not.toBe('#ffd400');
    expect(page.style).toContain(`:root { --signet-accent: ${theme.viewerAccent}; --signet-accent-text: ${LIGHT_TEXT}; --signet-field-bg: ${theme.fieldTint}; }`);
    expect(page.csp).toContain(`style-src 'self' ${hashOf(page.style)};`);
  });

  it('a stored value that is not #rrggbb never reaches the style sheet: the default page', async () => {
    const hostile = [
      '#fff;}body{display:none}',
      "red; } * { background: url('https://evil.example/x') }",
      '#0a7d4f</style><script>alert(1)</script>',
      '#0a7d4f\n}',
      'url(https://evil.example/x.png)',
      'expression(alert(1))',
      '#a1b',
    ];
    for (const value of hostile) {
      const page = await pageOf(value);
      expect(page.csp, value).toBe(SIGNING_PAGE_CSP);
      expect(page.html, value).not.toContain(value);
      expect(page.html, value).not.toContain('evil.example');
      expect(page.style, value).not.toContain('--signet-accent-text');
    }
  });

  it('PATCH /organization colours the next page and null restores the default; a refused colour changes nothing', async () => {
    const page = await pageOf(null);
    const sk = (await t.createKey({ kind: 'sk' }, page.organization.id)).secret;
    expect((await call(t, 'PATCH', '/organization', { key: sk, body: { brandColor: '#fff;}body{' } })).status).toBe(400);
    const lease = await t.createDocument({ pages: 2, fields: sampleLeaseFields(2), signers: [...LEASE_SIGNERS], organizationId: page.organization.id });
    const path = `/sign/${signSigningLink(t.secret, { documentId: lease.id, signerId: 'tenant', expires: Math.floor(Date.now() / 1000) + 3600 })}`;
    expect((await call(t, 'GET', path, { ip: visitor() })).headers.get('Content-Security-Policy')).toBe(SIGNING_PAGE_CSP);

    expect((await call(t, 'PATCH', '/organization', { key: sk, body: { name: 'Acme & Sons', brandColor: '#7c3aed' } })).status).toBe(200);
    const branded = await call(t, 'GET', path, { ip: visitor() });
    const html = await branded.text();
    expect(styleOf(html)).toContain('--signet-accent: #7c3aed;');
    expect(html).toContain('<span class="org">from Acme &amp; Sons</span>');
    expect(branded.headers.get('Content-Security-Policy')).toContain(hashOf(styleOf(html)));

    expect((await call(t, 'PATCH', '/organization', { key: sk, body: { brandColor: null } })).status).toBe(200);
    expect((await call(t, 'GET', path, { ip: visitor() })).headers.get('Content-Security-Policy')).toBe(SIGNING_PAGE_CSP);
  });
});
