/**
 * The `tags` phase of `pnpm bench:server` (docs/text-tags.md, "Limits"): how long the PDF pool takes to find and
 * remove the text tags of a 300-page tagged document, against the `inspect` task on the same file in the same run
 * (the check every upload gets), so that a slower machine moves both. Printed, never asserted.
 */
import { createPdfPool } from '../src/pdf-worker/index.js';
import { applyTextTags } from '../src/documents/text-tags/index.js';
import { line, taggedPdf } from '../test/pdf/tagged-pdfs.js';

export interface TextTagsSettings {
  pages: number;
  /** Timed runs of each task, after one untimed run of each. */
  runs: number;
}

export interface TextTagsOutcome {
  pages: number;
  tags: number;
  fileBytes: number;
  tagsMs: number;
  inspectMs: number;
}

const LINE = 'The tenant shall pay the rent on the first day of each month, without demand, deduction or set-off';

/** A page of 44 lines of body text, one of them with a signature tag and a date tag among its words. */
function pageContent(page: number): string {
  let content = '';
  for (let i = 0; i < 44; i++) {
    const text = i === 30 ? `Tenant: {{signature;signer=tenant;required}} Date: {{date;signer=tenant}} (page ${page})` : LINE;
    content += line(54, 760 - i * 16, text, 9.5);
  }
  return content;
}

/**
 * Runs the phase: the median of `runs` timed runs of `textTags` and of `inspect`, one worker, the same file.
 * @example printTextTags(await measureTextTags({ pages: 300, runs: 5 }))
 */
export async function measureTextTags(settings: TextTagsSettings): Promise<TextTagsOutcome> {
  // Two tags a page: 250 pages' worth fit the 500 fields a document may have; the rest of the pages carry none.
  const pdf = await taggedPdf(Array.from({ length: settings.pages }, (_, index) => ({ content: index < 250 ? pageContent(index + 1) : pageContent(0).replace(/\{\{[^}]*\}\}/g, '____') })));
  const pool = createPdfPool({ workers: 1, taskTimeoutMs: 60_000 });
  try {
    let tags = 0;
    const time = async (task: () => Promise<unknown>) => {
      const runs: number[] = [];
      await task();
      for (let i = 0; i < settings.runs; i++) {
        const started = performance.now();
        await task();
        runs.push(performance.now() - started);
      }
      return median(runs);
    };
    const inspectMs = await time(() => pool.run('inspect', pdf));
    const tagsMs = await time(async () => {
      tags = (await applyTextTags(pool, pdf)).fields.length;
    });
    return { pages: settings.pages, tags, fileBytes: pdf.byteLength, tagsMs, inspectMs };
  } finally {
    await pool.close();
  }
}

export function printTextTags(outcome: TextTagsOutcome): void {
  const { pages, tags, fileBytes, tagsMs, inspectMs } = outcome;
  process.stdout.write(
    [
      `text tags (${pages} pages, ${tags} tags, ${(fileBytes / 1024 / 1024).toFixed(1)} MiB, median in the PDF pool)`,
      `  find and remove: ${tagsMs.toFixed(0)} ms   inspect: ${inspectMs.toFixed(0)} ms   ratio: ${(tagsMs / inspectMs).toFixed(1)}× inspect`,
      '',
    ].join('\n'),
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
