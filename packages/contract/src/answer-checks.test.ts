import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, generateAnswerChecks } from '../scripts/generate-answer-checks.js';
import { allEndpointChecks, checkErrorEnvelope, checkPageInfo, checkTimestamp } from './answer-checks.js';

const endpointChecks = allEndpointChecks();
import { endpoints } from './endpoints.js';
import { SdkDocumentSchema } from './schemas/document.js';
import { ErrorEnvelopeSchema } from './schemas/envelope.js';
import { PageInfoSchema } from './schemas/submission.js';
import { TimestampSchema } from './schemas/timestamp.js';

const document = {
  metadata: {
    id: 'doc_V1StGXR8Z5jdHi6BmyTaQ7fz',
    filename: 'Lease.pdf',
    mimeType: 'application/pdf',
    pageCount: 2,
    fileSize: 1024,
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    version: 1,
    status: 'pending',
  },
  documentUrl: 'https://sign.example.com/sdk/documents/doc_V1StGXR8Z5jdHi6BmyTaQ7fz/file?token=t',
  fields: [
    { id: 'signer_name', type: 'text', page: 1, x: 0.1, y: 0.1, width: 0.3, height: 0.05, required: true, editable: true, label: 'Name' },
    { id: 'agree', type: 'checkbox', page: 2, x: 0.1, y: 0.8, width: 0.05, height: 0.05, required: false, editable: true, label: 'Agree', value: { type: 'checkbox', checked: true } },
  ],
};

describe('the generated answer checks', () => {
  it('are what the generator makes of the zod schemas today (run `pnpm exec tsx packages/contract/scripts/generate-answer-checks.ts`)', async () => {
    expect(await readFile(GENERATED_FILE, 'utf8')).toBe(generateAnswerChecks());
  });

  it('name every endpoint with its method and path', () => {
    for (const [name, endpoint] of Object.entries(endpoints)) {
      expect(endpointChecks[name as keyof typeof endpoints]).toMatchObject({ method: endpoint.method, path: endpoint.path });
    }
  });

  it('accept and refuse what zod accepts and refuses', () => {
    expect(SdkDocumentSchema.safeParse(document).success).toBe(true);
    const answer = endpointChecks.getDocument.answer!;
    const samples: unknown[] = [
      document,
      { ...document, extra: 'a member the contract does not name' },
      { ...document, documentUrl: undefined },
      { ...document, metadata: { ...document.metadata, id: 'doc_short' } },
      { ...document, metadata: { ...document.metadata, createdAt: '2026-11-22T10:00:00' } },
      { ...document, fields: [{ ...document.fields[0], width: 1.5 }] },
      { ...document, fields: [{ ...document.fields[0], page: 0.5 }] },
      { ...document, fields: [{ ...document.fields[1], value: { type: 'checkbox', checked: 'yes' } }] },
      { ...document, fields: [{ ...document.fields[1], value: { type: 'stamp' } }] },
      null,
      [],
    ];
    for (const sample of samples) expect(answer(sample).success, JSON.stringify(sample)).toBe(SdkDocumentSchema.safeParse(sample).success);

    const envelope = { success: false, error: { code: 'VALIDATION_ERROR', message: 'no', details: { field: 'x', extra: 1 } }, meta: { requestId: 'req_1', timestamp: 'now' } };
    for (const sample of [envelope, { ...envelope, error: { ...envelope.error, code: 'NOPE' } }, { ...envelope, meta: {} }]) {
      expect(checkErrorEnvelope(sample).success).toBe(ErrorEnvelopeSchema.safeParse(sample).success);
    }
    for (const text of ['2026-11-22T10:00Z', '2000-02-29T00:00:00.123+05:30', '2100-02-29T00:00:00Z', '2026-11-22', 'x']) {
      expect(checkTimestamp(text).success, text).toBe(TimestampSchema.safeParse(text).success);
    }
    for (const rotation of [0, 90, 270, 45]) {
      const page = { pageNumber: 1, width: 612, height: 792, rotation };
      expect(checkPageInfo(page).success).toBe(PageInfoSchema.safeParse(page).success);
    }
  });

  it('say where an answer breaks the contract, as zod’s issue paths do', () => {
    const result = endpointChecks.getDocument.answer!({ ...document, fields: [{ ...document.fields[0], width: 'wide' }] });
    expect(result).toMatchObject({ success: false, issues: [{ path: 'fields.0.width' }] });
    expect(endpointChecks.getDocument.answer!({ metadata: document.metadata })).toMatchObject({ success: false, issues: [{ path: 'documentUrl' }] });
  });
});
