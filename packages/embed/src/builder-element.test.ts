import { queries, waitFor, within } from '@testing-library/dom';
import { afterEach, describe, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { mountBuilder, type BuilderElement, type SignetBuilderEventMap } from './builder.js';
import type { CreatedDraft, StoredDraft } from './test-support/commands.js';

/*
 * `<signet-builder>` against a real server: a draft, a builder session key of it, and what the server stores as the
 * author works in the element's shadow root.
 */

afterEach(() => document.body.replaceChildren());

/** The sample PDF's page: US Letter, in points. */
const PAGE = { width: 612, height: 792 };

function inside(host: Element) {
  return within(host.shadowRoot as unknown as HTMLElement, queries);
}

async function untilReady(host: Element): Promise<void> {
  await waitFor(() => expect(host.shadowRoot?.querySelector('[data-page-number="1"] canvas[data-rendered="true"]')).toBeTruthy(), {
    timeout: 15_000,
  });
}

/** Every builder event that reaches `document` (so only those that cross the shadow root and the element). */
function recordEvents() {
  const seen: Array<{ type: string; detail: unknown; target: EventTarget | null; composed: boolean }> = [];
  const types = ['signet:change', 'signet:save', 'signet:send', 'signet:error'] as const;
  for (const type of types) {
    document.addEventListener(type, (event: SignetBuilderEventMap[typeof type]) => {
      seen.push({ type, detail: event.detail, target: event.target, composed: event.composed });
    });
  }
  return seen;
}

function element(draft: CreatedDraft, attributes: Record<string, string> = {}): BuilderElement {
  const host = document.createElement('signet-builder');
  const all = { 'document-id': draft.documentId, 'api-key': draft.apiKey, 'base-url': draft.baseUrl, ...attributes };
  for (const [name, value] of Object.entries(all)) host.setAttribute(name, value);
  host.style.height = '720px';
  return host;
}

/** The draft as stored once `check` passes (autosave is debounced). */
async function stored(draft: CreatedDraft, check: (stored: StoredDraft) => boolean): Promise<StoredDraft> {
  let last: StoredDraft | undefined;
  await waitFor(
    async () => {
      last = await commands.readDraft(draft.documentId, draft.managerKey);
      expect(check(last), JSON.stringify(last)).toBe(true);
    },
    { timeout: 8_000, interval: 200 },
  );
  return last!;
}

describe('<signet-builder>', () => {
  it('renders the draft of its attributes in an open shadow root, with its styles inside it', async () => {
    const draft = await commands.createDraft();
    const host = element(draft);
    document.body.append(host);
    await untilReady(host);
    expect(host.shadowRoot?.mode).toBe('open');
    expect(host.querySelector('*')).toBeNull();
    const root = host.shadowRoot!.querySelector('.signet-builder')!;
    expect(root.getAttribute('role')).toBe('region');
    expect(inside(host).getByRole('button', { name: 'Signature' })).toBeTruthy();
    // Without `allow-send` there is no Send button.
    expect(inside(host).queryByRole('button', { name: 'Send' })).toBeNull();
    // The styles are constructed sheets of the shadow root: nothing added to the page.
    expect(host.shadowRoot!.adoptedStyleSheets.length).toBeGreaterThan(1);
    expect(host.shadowRoot!.querySelector('style')).toBeNull();
    expect(document.adoptedStyleSheets).toEqual([]);
  });

  it('takes its attributes as properties and renders again when one changes', async () => {
    const draft = await commands.createDraft();
    const host = document.createElement('signet-builder');
    host.style.height = '720px';
    Object.assign(host, { documentId: draft.documentId, apiKey: draft.apiKey, baseUrl: draft.baseUrl, fieldTypes: 'signature, text' });
    expect(host.getAttribute('document-id')).toBe(draft.documentId);
    expect(host.getAttribute('field-types')).toBe('signature, text');
    document.body.append(host);
    await untilReady(host);
    const palette = () => host.shadowRoot!.querySelectorAll('.signet-palette-item');
    expect(palette()).toHaveLength(2);
    expect(inside(host).getByRole('button', { name: 'Text' })).toBeTruthy();
    expect(host.shadowRoot!.querySelector('.signet-builder')!.getAttribute('lang')).toBe('en');

    host.setAttribute('locale', 'de');
    expect(host.locale).toBe('de');
    await waitFor(() => expect(host.shadowRoot!.querySelector('.signet-builder')!.getAttribute('lang')).toBe('de'));
    host.setAttribute('allow-send', '');
    await waitFor(() => expect(host.shadowRoot!.querySelector('.signet-builder button.signet-button--primary')).toBeTruthy());
    host.removeAttribute('field-types');
    await waitFor(() => expect(palette().length).toBe(12));
    host.documentId = null;
    expect(host.hasAttribute('document-id')).toBe(false);
    await waitFor(() => expect(host.shadowRoot!.querySelector('.signet-builder')).toBeNull());
  });

  it('saves a field placed with the keyboard and fires change, save and send events with their detail', async () => {
    const draft = await commands.createDraft({ allowSend: true });
    const events = recordEvents();
    const host = element(draft, { 'allow-send': '' });
    document.body.append(host);
    await untilReady(host);

    inside(host).getByRole('button', { name: 'Signature' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(host.shadowRoot!.activeElement?.closest('[data-field-id="signature-1"]')).toBeTruthy());
    const placed = await stored(draft, ({ fields }) => fields.length === 1);
    await userEvent.keyboard('{Shift>}{ArrowRight}{/Shift}');
    const moved = await stored(draft, ({ fields }) => fields[0]!.x !== placed.fields[0]!.x);
    const [signature] = moved.fields;
    expect(signature).toMatchObject({ id: 'signature-1', type: 'signature', page: 1 });
    expect(signature!.width).toBeCloseTo(180 / PAGE.width, 5);
    expect(signature!.x).toBeCloseTo(placed.fields[0]!.x + 10 / PAGE.width, 5);
    await waitFor(() => expect(events.filter((event) => event.type === 'signet:save').at(-1)).toMatchObject({ target: host, detail: { version: moved.version } }));

    const changes = events.filter((event) => event.type === 'signet:change');
    expect(changes[0]).toMatchObject({ target: host, composed: true });
    const lastFields = (changes.at(-1)!.detail as { fields: Array<{ id: string; x: number }> }).fields;
    expect(lastFields.map((field) => field.id)).toEqual(['signature-1']);
    expect(lastFields[0]!.x).toBeCloseTo(signature!.x, 6);

    await userEvent.click(inside(host).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(events.map((event) => event.type)).toContain('signet:send'), { timeout: 8_000 });
    const send = events.find((event) => event.type === 'signet:send')!;
    expect(send).toMatchObject({ target: host, composed: true, detail: { document: { id: draft.documentId, status: 'pending' } } });
    expect((await commands.readDraft(draft.documentId, draft.managerKey)).status).toBe('pending');
    expect(events.filter((event) => event.type === 'signet:error')).toEqual([]);
  });

  it('edits a template given by template-id: a placed field is saved as the template\'s next version', async () => {
    const template = await commands.createTemplate();
    const events = recordEvents();
    const host = document.createElement('signet-builder');
    for (const [name, value] of Object.entries({ 'template-id': template.documentId, 'api-key': template.apiKey, 'base-url': template.baseUrl })) {
      host.setAttribute(name, value);
    }
    host.style.height = '720px';
    document.body.append(host);
    await untilReady(host);
    expect(host.templateId).toBe(template.documentId);

    inside(host).getByRole('button', { name: 'Signature' }).focus();
    await userEvent.keyboard('{Enter}');
    let saved = await commands.readTemplate(template.documentId, template.managerKey);
    await waitFor(
      async () => {
        saved = await commands.readTemplate(template.documentId, template.managerKey);
        expect(saved.fields.map((field) => field.id)).toEqual(['signature-1']);
      },
      { timeout: 8_000, interval: 200 },
    );
    expect(saved.version).toBe(2);
    await waitFor(() => expect(events.filter((event) => event.type === 'signet:save').at(-1)).toMatchObject({ target: host, detail: { version: 2 } }));
    expect(events.filter((event) => event.type === 'signet:error')).toEqual([]);
  });

  it('fires signet:error with the error when the draft cannot be loaded', async () => {
    const draft = await commands.createDraft();
    const events = recordEvents();
    document.body.append(element(draft, { 'document-id': 'doc_doesnotexist000000000' }));
    await waitFor(() => expect(events.map((event) => event.type)).toContain('signet:error'), { timeout: 15_000 });
    const error = events.find((event) => event.type === 'signet:error')!;
    expect(error.target).toBe(document.querySelector('signet-builder'));
    expect((error.detail as { error: Error }).error).toBeInstanceOf(Error);
  });
});

describe('mountBuilder', () => {
  it('renders into the element’s shadow root, updates its props and unmounts', async () => {
    const draft = await commands.createDraft();
    const target = document.createElement('div');
    target.style.height = '720px';
    document.body.append(target);
    const builder = mountBuilder(target, { documentId: draft.documentId, apiKey: draft.apiKey, baseUrl: draft.baseUrl });
    await untilReady(target);
    builder.update({ locale: 'fr' });
    await waitFor(() => expect(target.shadowRoot!.querySelector('.signet-builder')!.getAttribute('lang')).toBe('fr'));
    builder.unmount();
    expect(target.shadowRoot!.childElementCount).toBe(0);
  });
});
