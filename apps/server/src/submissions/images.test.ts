import { Buffer } from 'node:buffer';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, type FieldDefinition, type FieldValue } from '@signet/contract';
import sharp from 'sharp';
import { deepTransparentPng, truncatedPng, TRUNCATED_PNG_BYTES } from '../../test/hardening/hostile-images.js';
import { slowToDrawPdf } from '../../test/hardening/hostile-pdfs.js';
import { createPdfPool } from '../pdf-worker/index.js';
import { sampleFields } from '../pdf/sample.js';
import type { DocumentRecord } from '../storage/types.js';
import { buildPayload, call, completeValues, createTestApp, engines, type TestApp } from '../../test/support/harness.js';
import { SEAL_IMAGE_LIMITS } from './decode-image.js';
import { dataUrlOf, pngDataUrl } from '../../test/submissions/test-png.js';
import { findDocument } from '../storage/queries/documents.js';
import { findSubmissionForDocument, findSubmissionOfSigner } from '../storage/queries/submissions.js';
import { findSealState } from '../storage/queries/seals.js';

/** An image field over the whole of page 1: the seal draws whatever it holds as large as a page. */
const FULL_PAGE_PHOTO: FieldDefinition = { id: 'photo', type: 'image', page: 1, x: 0, y: 0, width: 1, height: 1, required: false, editable: true, label: 'Photo' };

async function errorOf(res: Response) {
  const body = ErrorEnvelopeSchema.parse(await res.json());
  expect(body.meta.requestId).toBe(res.headers.get('X-Request-Id'));
  return body.error;
}

/** A payload of `document` with `overrides` among its values, and the payload path of each overridden value. */
async function payloadWith(document: DocumentRecord, overrides: Record<string, FieldValue>) {
  const payload = await buildPayload(document, { ...completeValues(document.fields), ...overrides });
  const paths = Object.fromEntries(
    (payload.fields as Array<{ id: string }>).flatMap((field, index) => (field.id in overrides ? [[field.id, `fields[${index}].value.imageData`]] : [])),
  );
  return { payload, paths };
}

const png = (bytes: Uint8Array): FieldValue => ({ type: 'image', imageData: dataUrlOf(bytes) });

describe.each(engines)('images decoded at submit, on $name', (engine) => {
  let t: TestApp;
  let key: string;
  beforeEach(async () => {
    t = await createTestApp(engine);
    key = (await t.createKey()).secret;
  });
  afterEach(() => t.close());

  const submit = (body: unknown) => call(t, 'POST', '/sdk/documents/submit', { key, body });

  it('refuses a 96-byte PNG whose pixel data is cut short (its chunks all whole) with a 422 naming the value', async () => {
    const document = await t.createDocument({ pages: 1 });
    const truncated = await truncatedPng();
    expect(truncated).toHaveLength(TRUNCATED_PNG_BYTES);
    for (const [field, type] of [['signature', 'signature'], ['signer_initials', 'initials']] as const) {
      const { payload, paths } = await payloadWith(document, { [field]: { type, imageData: dataUrlOf(truncated) } });
      const res = await submit(payload);
      expect(res.status, field).toBe(422);
      const error = await errorOf(res);
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details).toEqual({ field: paths[field], reason: expect.stringMatching(/^image could not be decoded: .*libpng read error/) });
      expect(error.message).toBe(`Invalid ${paths[field]}: ${error.details!.reason}`);
    }
    // Nothing was stored: the document still takes a good submission.
    expect((await findDocument(t.storage.db.query, document.id))?.status).toBe('pending');
    expect(await findSubmissionForDocument(t.storage.db.query, document.id)).toBeNull();
    expect((await submit(await buildPayload(document))).status).toBe(201);
  });

  it('refuses the attacker’s PNG cut to 96 bytes (its chain of chunks broken) in an image field, naming it', async () => {
    const document = await t.createDocument({ pages: 1, fields: [...sampleFields(1), FULL_PAGE_PHOTO] });
    const cut = (await deepTransparentPng()).subarray(0, TRUNCATED_PNG_BYTES);
    const { payload, paths } = await payloadWith(document, { photo: png(cut) });
    const res = await submit(payload);
    expect(res.status).toBe(422);
    expect((await errorOf(res)).details).toEqual({ field: paths.photo, reason: 'PNG is truncated' });
  });

  it('accepts the 4096 × 4096 16-bit transparent PNG, keeps the payload as sent, and seals it on the first attempt', async () => {
    const document = await t.createDocument({ pages: 1, fields: [...sampleFields(1), FULL_PAGE_PHOTO] });
    const deep = await deepTransparentPng();
    const { payload, paths } = await payloadWith(document, { photo: png(deep), signature: { type: 'signature', imageData: dataUrlOf(deep) } });

    const started = performance.now();
    const res = await submit(payload);
    const submitMs = Math.round(performance.now() - started);
    expect(res.status).toBe(201);

    // The payload is the text as received (its checksum still verifies); the seal's copies are kept beside it.
    const stored = (await findSubmissionForDocument(t.storage.db.query, document.id))!;
    expect(JSON.parse(stored.payload)).toEqual(payload);
    expect(Object.keys(stored.sealImages ?? {}).sort()).toEqual([paths.photo, paths.signature].sort());
    for (const copy of Object.values(stored.sealImages!)) {
      expect(copy.startsWith('data:image/png;base64,')).toBe(true);
      const metadata = await sharp(Buffer.from(copy.slice(copy.indexOf(',') + 1), 'base64')).metadata();
      expect(metadata).toMatchObject({ format: 'png', width: SEAL_IMAGE_LIMITS.maxSide, height: SEAL_IMAGE_LIMITS.maxSide, depth: 'uchar', hasAlpha: true });
    }

    expect(await t.sealDue()).toBe(1);
    const { job, sealed } = await findSealState(t.storage.db.query, document.id);
    expect(job).toMatchObject({ status: 'sealed', attempts: 1, lastError: null });
    expect(sealed?.fileSize).toBeGreaterThan(0);
    // The seal's own time in the PDF pool, as its log line gives it.
    const sealMs = t.logs.find((line) => line.msg === 'document sealed' && line.documentId === document.id)?.ms;
    console.log(JSON.stringify({ engine: engine.name, pngBytes: deep.length, submitMs, sealMs }));
  }, 60_000);

  it('keeps no copy of an image within the seal’s limits, and decodes a JPEG photo too', async () => {
    const document = await t.createDocument({ pages: 1, fields: [...sampleFields(1), FULL_PAGE_PHOTO] });
    const jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 200, g: 120, b: 40 } } }).jpeg().toBuffer();
    const payload = await buildPayload(document, { ...completeValues(document.fields), photo: { type: 'image', imageData: `data:image/jpeg;base64,${jpeg.toString('base64')}` } });
    expect((await submit(payload)).status).toBe(201);
    expect((await findSubmissionForDocument(t.storage.db.query, document.id))!.sealImages).toBeUndefined();
  });

  it('refuses a JPEG whose Huffman table is broken, naming it', async () => {
    const document = await t.createDocument({ pages: 1, fields: [...sampleFields(1), FULL_PAGE_PHOTO] });
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 10, g: 20, b: 30 } } }).jpeg().toBuffer();
    // The start and end markers and the frame header are whole (what the submit rules read); a Huffman table is not.
    const table = jpeg.indexOf(Buffer.from([0xff, 0xc4]));
    const broken = Buffer.from(jpeg).fill(0xff, table + 5, table + 21);
    const imageData = `data:image/jpeg;base64,${broken.toString('base64')}`;
    const { payload, paths } = await payloadWith(document, { photo: { type: 'image', imageData } });
    const res = await submit(payload);
    expect(res.status).toBe(422);
    expect((await errorOf(res)).details).toEqual({ field: paths.photo, reason: expect.stringMatching(/^image could not be decoded: .*Huffman/) });
  });

  it('refuses a second signer’s undecodable image too, before anything of theirs is stored', async () => {
    const lease = await t.createLease({ signingOrder: 'parallel' });
    const signerOf = (id: string) => lease.fields.find((field) => field.id === id)?.signerId;
    const image = lease.fields.find((field) => (field.type === 'signature' || field.type === 'initials') && signerOf(field.id) !== undefined)!;
    const mine = lease.fields.filter((field) => field.signerId === image.signerId);
    const values = Object.fromEntries(Object.entries(completeValues(mine)));
    const session = (await t.createSession(lease.id, image.signerId)).secret;
    const payload = await buildPayload({ ...lease, fields: mine }, { ...values, [image.id]: { type: image.type as 'signature', imageData: dataUrlOf(await truncatedPng()) } });
    const index = (payload.fields as Array<{ id: string }>).findIndex((field) => field.id === image.id);
    const res = await call(t, 'POST', '/sdk/documents/submit', { key: session, body: payload });
    expect(res.status).toBe(422);
    expect((await errorOf(res)).details).toMatchObject({ field: `fields[${index}].value.imageData` });
    expect(await findSubmissionOfSigner(t.storage.db.query, lease.id, image.signerId!)).toBeNull();
  });
});

describe('images decoded at submit: a full PDF pool', () => {
  // One worker and room for one task, which leaves as busy once it has waited 300 ms.
  const pool = createPdfPool({ workers: 1, maxQueue: 1, queueTimeoutMs: 300, taskTimeoutMs: 4000 });
  afterAll(() => pool.close());

  it('answers 503 with Retry-After and stores nothing when no worker is free to decode, then accepts the retry', async () => {
    const t = await createTestApp(undefined, {}, undefined, { pdfPool: pool });
    try {
      const key = (await t.createKey()).secret;
      const document = await t.createDocument({ pages: 1 });
      // 16 bits a sample makes it other than a plain PNG (isPlainPng), so it is decoded in the pool.
      const deep = sharp({ create: { width: 200, height: 60, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } });
      const imageData = dataUrlOf(await deep.toColourspace('rgb16').png().toBuffer());
      const payload = await buildPayload(document, { ...completeValues(document.fields), signature: { type: 'signature', imageData } });
      const holding = pool.run('preview', slowToDrawPdf()).catch((error: Error) => error);
      while (pool.stats().running === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const started = performance.now();
      const res = await call(t, 'POST', '/sdk/documents/submit', { key, body: payload });
      expect(performance.now() - started).toBeLessThan(1000);
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toBe('5');
      expect((await errorOf(res)).code).toBe('SERVICE_UNAVAILABLE');
      expect(await findSubmissionForDocument(t.storage.db.query, document.id)).toBeNull();
      await holding;
      expect((await call(t, 'POST', '/sdk/documents/submit', { key, body: payload })).status).toBe(201);
    } finally {
      await t.close();
    }
  }, 30_000);
});
