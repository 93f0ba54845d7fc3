import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromMarkdown } from 'mdast-util-from-markdown';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/** The languages whose blocks are commands to run (the others are code, markup or data). */
export const SHELL = new Set(['sh', 'bash', 'shell']);
/** Code the test compiles and, where it can, runs. */
export const CODE = new Set(['ts', 'tsx']);

/**
 * What the Markdown says about the block after it, in an HTML comment on the line before (docs/development.md):
 * - `skip (reason)`: the block cannot run in a test (it installs, starts a server until Ctrl-C, lists commands with
 *   placeholders); the reason is required.
 * - `sign NAME (why)`: before the block, the test submits the document whose id is in the shell variable NAME, as
 *   the signer would in the browser, and waits until it is sealed; `sign` alone does it to the document that stands
 *   for `doc_…` in the block.
 * - `payload (why)`: before the block, the test writes `payload.json`, a valid submission of that document.
 * - `lease` / `draft`: `doc_…` stands for a two-signer lease or a draft, not for the sample contract.
 * - `node (why)`: a TypeScript block the test runs with tsx, `@signet/api` resolving to packages/api and the seeded
 *   sk key in `SIGNET_SK`.
 * - `typecheck (why)`: a TypeScript block the test compiles (strict) against `@signet/api` and hono, with the
 *   host's own names the docs use declared (`HOST_DECLARATIONS` in the test).
 */
export interface Directive {
  kind: 'skip' | 'sign' | 'payload' | 'lease' | 'draft' | 'node' | 'typecheck';
  variable?: string;
  reason?: string;
}

export interface Snippet {
  /** The Markdown file, relative to the repository's root. */
  file: string;
  /** The line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  directives: Directive[];
}

const DIRECTIVE = /^<!--\s*snippet:\s*(skip|sign|payload|lease|draft|node|typecheck)\b\s*([A-Z_][A-Z0-9_]*)?\s*(?:\((.+)\))?\s*-->$/s;

/** The Markdown files whose snippets run: README.md and docs/*.md, except docs/decisions.md (a record, not a guide). */
export function documentationFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md') && name !== 'decisions.md')
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

type Node = { type: string; value?: string; url?: string; depth?: number; lang?: string | null; children?: Node[]; position?: { start: { line: number } } };

/**
 * The fenced code blocks of one Markdown file, in order, each with the directives of the HTML comments right before
 * it. A comment that starts `<!-- snippet:` but is not a directive this test knows throws, so a typo is not a
 * silently ignored skip.
 */
export function extractSnippets(file: string, markdown = readFileSync(join(ROOT, file), 'utf8')): Snippet[] {
  const snippets: Snippet[] = [];
  const walk = (children: Node[]) => {
    let pending: Directive[] = [];
    for (const node of children) {
      if (node.type === 'html' && /^<!--\s*snippet:/.test(node.value!)) {
        const match = DIRECTIVE.exec(node.value!.trim());
        if (!match) throw new Error(`${file}:${node.position!.start.line}: unknown snippet directive ${node.value}`);
        const [, kind, variable, reason] = match;
        if (kind === 'skip' && !reason) throw new Error(`${file}:${node.position!.start.line}: a skip needs its reason`);
        pending.push({ kind: kind as Directive['kind'], variable, reason });
        continue;
      }
      if (node.type === 'code') {
        snippets.push({ file: relative(ROOT, join(ROOT, file)), line: node.position!.start.line, lang: node.lang ?? '', code: node.value!, directives: pending });
      } else if (node.children) {
        walk(node.children);
      }
      pending = [];
    }
  };
  walk(fromMarkdown(markdown).children as Node[]);
  return snippets;
}

const parsed = new Map<string, Snippet[]>();

/** The snippets of every documentation file (each file parsed once). */
export function allSnippets(): Snippet[] {
  return documentationFiles().flatMap((file) => fileSnippets(file));
}

/** One documentation file's snippets, parsed once. */
export function fileSnippets(file: string): Snippet[] {
  if (!parsed.has(file)) parsed.set(file, extractSnippets(file));
  return parsed.get(file)!;
}

export function isSkipped(snippet: Snippet): boolean {
  return snippet.directives.some((directive) => directive.kind === 'skip');
}

export function directive(snippet: Snippet, kind: Directive['kind']): Directive | undefined {
  return snippet.directives.find((d) => d.kind === kind);
}

function text(node: Node): string {
  return node.value ?? (node.children ?? []).map(text).join('');
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings, and its links (with the line each is on). */
export function headingsAndLinks(markdown: string): { anchors: Set<string>; links: { url: string; line: number }[] } {
  const anchors = new Set<string>();
  const links: { url: string; line: number }[] = [];
  const walk = (node: Node) => {
    if (node.type === 'heading') anchors.add(anchor(text(node)));
    if (node.type === 'link' || node.type === 'image') links.push({ url: node.url!, line: node.position!.start.line });
    for (const child of node.children ?? []) walk(child);
  };
  walk(fromMarkdown(markdown) as Node);
  return { anchors, links };
}
