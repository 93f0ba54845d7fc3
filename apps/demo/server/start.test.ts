import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * `pnpm start` stopped by Ctrl-C (docs/decisions.md, "Operations: metrics, readiness, shutdown"): the terminal sends
 * SIGINT to its whole process group, the demo's process and the API's PDF workers alike. It must stop cleanly: exit
 * 0, no stack trace (an uncaught ERR_IPC_CHANNEL_CLOSED was one), an upload under way answered, no process left
 * behind.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-demo-start-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A one-page PDF, written by hand (offsets computed), so the test needs no PDF library. */
function minimalPdf(): Uint8Array<ArrayBuffer> {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ];
  let text = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = text.length;
    text += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(text);
}

/** Processes still running with `marker` in their environment: the demo's and its PDF workers (own groups). */
function leftovers(marker: string): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) return [];
    try {
      return readFileSync(`/proc/${entry}/environ`, 'utf8').includes(marker) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

describe('pnpm start', { timeout: 120_000 }, () => {
  it('stops cleanly on Ctrl-C (SIGINT to the process group), finishing an upload under way', async () => {
    const stateFile = join(dir, 'state.json');
    // As `pnpm start` runs it: node with tsx's loader, no tsx process in between to relay (and repeat) the signal.
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/demo/server/start.ts'], {
      cwd: ROOT,
      // Its own process group, as a terminal's foreground job: Ctrl-C is SIGINT to every process in it.
      detached: true,
      env: { ...process.env, SIGNET_STATE_FILE: stateFile, DATABASE_URL: `file:${join(dir, 'demo.db')}`, PORT: '0', DEMO_PORT: '0', HOST: '127.0.0.1', PDF_WORKERS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    try {
      const deadline = Date.now() + 90_000;
      while (!output.includes('Ctrl-C stops everything')) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`pnpm start did not come up:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const state = JSON.parse(await readFile(stateFile, 'utf8')) as { apiUrl: string; sk: string };
      // What a user needs for the README's commands: the organization's slug and an sk key (the one used below).
      expect(output).toMatch(/^ {2}Organization {4}demo /m);
      expect(output).toContain(`Demo sk key     ${state.sk} `);
      // An upload under way when Ctrl-C comes: its body still arriving, then inspected by a PDF worker while the
      // server stops.
      const form = new FormData();
      form.set('file', new File([minimalPdf()], 'one.pdf', { type: 'application/pdf' }));
      form.set('fields', JSON.stringify([{ id: 'name', type: 'text', page: 1, x: 0.1, y: 0.1, width: 0.3, height: 0.05, label: 'Name', required: true, editable: true }]));
      const encoded = new Request('http://localhost/', { method: 'POST', body: form });
      const body = Buffer.from(await encoded.arrayBuffer());
      const upload = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request(
          `${state.apiUrl}/documents`,
          { method: 'POST', headers: { 'X-API-Key': state.sk, 'Content-Type': encoded.headers.get('Content-Type')!, 'Content-Length': body.length } },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, text }));
          },
        );
        req.on('error', reject);
        req.write(body.subarray(0, 200));
        setTimeout(() => {
          process.kill(-child.pid!, 'SIGINT');
          setTimeout(() => req.end(body.subarray(200)), 300);
        }, 300);
      });
      const uploaded = await upload;
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(uploaded.status, uploaded.text).toBe(201);
      expect(output).toContain('Stopped.');
      expect(output).not.toMatch(/ERR_IPC_CHANNEL_CLOSED|Error:|    at /);
      const gone = Date.now() + 5000;
      while (leftovers(dir).length > 0 && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(leftovers(dir)).toEqual([]);
    } finally {
      for (const pid of leftovers(dir)) process.kill(pid, 'SIGKILL');
    }
  });
});
