import { generateSamplePdf, sampleLeaseFields, startLiveServer, type LiveServer } from '@signet/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SigningApiError, createBuilderClient, createSigningClient } from './index.js';

/* `createBuilderClient`: what an author's browser calls with a builder session key, against the real server. */

let server: LiveServer;
beforeAll(async () => {
  server = await startLiveServer();
});
afterAll(() => server.close());

it('reads and saves a draft and a template with their builder session keys, and has no management method', { timeout: 120_000 }, async () => {
  const sk = createSigningClient({ apiKey: await server.createKey({ kind: 'sk' }), baseUrl: server.url, retry: false, timeoutMs: 60_000 });
  const pdf = (await generateSamplePdf({ pages: 1 })) as Uint8Array<ArrayBuffer>;
  const draft = await sk.createDraft({ file: new Blob([pdf]) });
  const template = await sk.createTemplate({ file: new Blob([pdf]), roles: [{ id: 'tenant', name: 'Tenant' }] });

  const forDraft = createBuilderClient({ apiKey: (await sk.createBuilderSession(draft.id)).key, baseUrl: server.url, retry: false, timeoutMs: 60_000 });
  expect((await forDraft.getDraft(draft.id)).version).toBe(1);
  expect((await forDraft.updateDraft(draft.id, { version: 1, fields: sampleLeaseFields(1).slice(0, 1).map(({ signerId: _, ...field }) => field) })).version).toBe(2);

  const forTemplate = createBuilderClient({ apiKey: (await sk.createTemplateBuilderSession(template.id)).key, baseUrl: server.url, retry: false, timeoutMs: 60_000 });
  const fields = sampleLeaseFields(1).filter((field) => field.signerId === 'tenant');
  expect(await forTemplate.updateTemplate(template.id, { version: 1, fields, roles: [{ id: 'tenant', name: 'Tenant' }] })).toMatchObject({ version: 2 });
  const refused = await forTemplate.getDraft(draft.id).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(SigningApiError);
  expect(refused).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', status: 403 });

  expect(Object.keys(forDraft).sort()).toEqual(
    ['checkVerification', 'declineDocument', 'getDocument', 'getDraft', 'getTemplate', 'rateLimit', 'sendDocument', 'sendVerificationCode', 'submitDocument', 'updateDraft', 'updateTemplate', 'validateKey'].sort(),
  );
});
