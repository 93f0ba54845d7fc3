import { createDeflate, deflateSync } from 'node:zlib';

/*
 * PDFs made to hurt a server that reads them: each is small on the wire and costs much time or memory to inspect or
 * draw. They are written object by object (no PDF library would write most of them), with a correct cross-reference
 * table, so that every reader gets as far as the expensive part.
 */

/** An object written in the file's body, or one kept inside the object stream numbered `objectStream`, at `index`. */
type PdfObject = string | { dictionary: string; stream: Uint8Array } | { objectStream: number; index: number };

const encoder = new TextEncoder();

/**
 * A PDF of `objects` (numbered from 1; object 1 is the catalog) with its cross-reference table and trailer; when some
 * object lives in an object stream, with a cross-reference stream instead (the only way to say where it is).
 */
function writePdf(objects: PdfObject[]): Uint8Array {
  const parts: Uint8Array[] = [encoder.encode('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let length = parts[0]!.byteLength;
  const offsets: number[] = [];
  const push = (part: Uint8Array) => {
    parts.push(part);
    length += part.byteLength;
  };
  objects.forEach((object, index) => {
    offsets.push(length);
    if (typeof object === 'object' && 'objectStream' in object) return;
    if (typeof object === 'string') {
      push(encoder.encode(`${index + 1} 0 obj\n${object}\nendobj\n`));
    } else {
      push(encoder.encode(`${index + 1} 0 obj\n<< ${object.dictionary} /Length ${object.stream.byteLength} >>\nstream\n`));
      push(object.stream);
      push(encoder.encode('\nendstream\nendobj\n'));
    }
  });
  const xref = length;
  if (objects.some((object) => typeof object === 'object' && 'objectStream' in object)) {
    // Object 0, the objects, then the cross-reference stream itself; rows of /W [1 4 2]: type, offset or stream, index.
    const size = objects.length + 2;
    const rows = Buffer.alloc(size * 7);
    const row = (at: number, type: number, field2: number, field3: number) => {
      rows.writeUInt8(type, at * 7);
      rows.writeUInt32BE(field2, at * 7 + 1);
      rows.writeUInt16BE(field3, at * 7 + 5);
    };
    row(0, 0, 0, 0xffff);
    objects.forEach((object, index) => {
      if (typeof object === 'object' && 'objectStream' in object) row(index + 1, 2, object.objectStream, object.index);
      else row(index + 1, 1, offsets[index]!, 0);
    });
    row(size - 1, 1, xref, 0);
    push(encoder.encode(`${size - 1} 0 obj\n<< /Type /XRef /Size ${size} /W [1 4 2] /Root 1 0 R /Length ${rows.byteLength} >>\nstream\n`));
    push(rows);
    push(encoder.encode(`\nendstream\nendobj\nstartxref\n${xref}\n%%EOF\n`));
    return Buffer.concat(parts);
  }
  const rows = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  push(encoder.encode(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}`));
  push(encoder.encode(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** A one-page Letter PDF whose page has `content` as its (Flate-compressed) content stream and `resources`. */
function onePage(content: Uint8Array, { resources = '', extra = [] as PdfObject[], compressed = false } = {}): Uint8Array {
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << ${resources} >> >>`,
    { dictionary: '/Filter /FlateDecode', stream: compressed ? content : deflateSync(content, { level: 9 }) },
    ...extra,
  ]);
}

/**
 * Deflates `prefix` and then `totalBytes` copies of `byte` without holding them: the compressed stream of a
 * decompression bomb.
 */
async function deflatedRun(totalBytes: number, byte = 0x20, prefix?: Uint8Array): Promise<Uint8Array> {
  const chunk = Buffer.alloc(1024 * 1024, byte);
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (data: Buffer) => out.push(data));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  if (prefix) deflate.write(prefix);
  for (let written = 0; written < totalBytes; written += chunk.byteLength) {
    const part = chunk.subarray(0, Math.min(chunk.byteLength, totalBytes - written));
    if (!deflate.write(part)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** Page 1 is `fills` full-page rectangle fills: a few kilobytes that take PDFium minutes to draw. */
export function slowToDrawPdf(fills = 200_000): Uint8Array {
  return onePage(encoder.encode('0 0 612 792 re f\n'.repeat(fills)));
}

/** Page 1's content stream inflates to `inflatedBytes` (1 GiB by default) of spaces from about a megabyte. */
export async function contentBombPdf(inflatedBytes = 1024 ** 3): Promise<Uint8Array> {
  return onePage(await deflatedRun(inflatedBytes), { compressed: true });
}

/**
 * A page that lives in an object stream which inflates to `inflatedBytes` (1 GiB by default) past it: a reader must
 * inflate the stream to find the page, and every reader we use (@libpdf/core, PDFium) inflates a stream whole.
 * (An object stream that nothing refers to would not do: @libpdf/core parses objects only when asked for them.)
 */
export async function objectStreamBombPdf(inflatedBytes = 1024 ** 3): Promise<Uint8Array> {
  const header = encoder.encode('3 0\n');
  const page = encoder.encode('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\n');
  const stream = await deflatedRun(inflatedBytes, 0x20, Buffer.concat([header, page]));
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    { objectStream: 5, index: 0 },
    { dictionary: '/Filter /FlateDecode', stream: deflateSync(encoder.encode('0 0 1 rg 72 72 100 100 re f\n')) },
    { dictionary: `/Type /ObjStm /N 1 /First ${header.byteLength} /Filter /FlateDecode`, stream },
  ]);
}

/** Page 1 draws a `side` × `side` grey image (30,000 a side by default: 900 MB decoded) from under a megabyte. */
export async function imageBombPdf(side = 30_000): Promise<Uint8Array> {
  const image = await deflatedRun(side * side, 0x80);
  return onePage(encoder.encode('q 612 0 0 792 0 0 cm /Im0 Do Q\n'), {
    resources: '/XObject << /Im0 5 0 R >>',
    extra: [
      {
        dictionary: `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
        stream: image,
      },
    ],
  });
}

/** A PDF of `pages` empty pages in one flat page tree. */
export function manyPagesPdf(pages = 100_000): Uint8Array {
  const kids = Array.from({ length: pages }, (_, index) => `${index + 3} 0 R`).join(' ');
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} /MediaBox [0 0 612 792] >>`,
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R >>'),
  ]);
}

/** Page 1's dictionary holds an array nested `depth` deep: a reader that parses it recursively runs out of stack. */
export function deeplyNestedPdf(depth = 100_000): Uint8Array {
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Nested ${'['.repeat(depth)}${']'.repeat(depth)} >>`,
  ]);
}

/** Each hostile PDF above at its default size, named, in the order the suite and the benchmark upload them. */
export async function hostilePdfs(): Promise<Array<{ name: string; pdf: Uint8Array }>> {
  return [
    { name: 'slow to draw (200,000 fills)', pdf: slowToDrawPdf() },
    { name: 'content stream inflating to 1 GiB', pdf: await contentBombPdf() },
    { name: 'object stream inflating to 1 GiB', pdf: await objectStreamBombPdf() },
    { name: '30,000 × 30,000 image', pdf: await imageBombPdf() },
    { name: '100,000 pages', pdf: manyPagesPdf() },
    { name: 'array nested 100,000 deep', pdf: deeplyNestedPdf() },
  ];
}

/**
 * `POST /documents` of `pdf` with `fields`, as an sk key's client uploads it; the answer is the caller's to read.
 * @example const response = await uploadPdf(server.url, sk, slowToDrawPdf())
 */
export function uploadPdf(baseUrl: string, key: string, pdf: Uint8Array, fields: unknown[] = []): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'hostile.pdf');
  form.append('fields', JSON.stringify(fields));
  return fetch(`${baseUrl}/documents`, { method: 'POST', headers: { 'X-API-Key': key }, body: form });
}
