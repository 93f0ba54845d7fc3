import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** A local npm registry (verdaccio) of the registry test (docs/releases.md). */
export interface LocalRegistry {
  url: string;
  /** An npmrc whose registry is this one, for `npm_config_userconfig`. */
  npmrc: string;
  /** What verdaccio printed. */
  log: string;
  stop(): Promise<void>;
}

/**
 * Starts verdaccio on `host`:`port` (a loopback address) with its storage in `dir`: anyone may read and publish
 * `@signet/*`; it proxies nothing, so every other name is a 404 (a host takes those from its usual registry).
 */
export async function startRegistry(dir: string, host: string, port: number): Promise<LocalRegistry> {
  const storage = join(dir, 'storage');
  mkdirSync(storage, { recursive: true });
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(storage)}`,
      // The viewer's tarball carries pdf.js's worker and Caveat's files: above verdaccio's default 10 MB would fail.
      'max_body_size: 50mb',
      'web:',
      '  enable: false',
      'uplinks: {}',
      'packages:',
      "  '@signet/*':",
      '    access: $all',
      '    publish: $anonymous',
      '    unpublish: $anonymous',
      "  '**':",
      '    access: $all',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const url = `http://${host}:${port}/`;
  // npm sends a token with every publish; verdaccio lets an anonymous one through where `publish: $anonymous`.
  const npmrc = join(dir, 'npmrc');
  writeFileSync(npmrc, `registry=${url}\n//${host}:${port}/:_authToken=anonymous\n`);

  const bin = createRequire(import.meta.url).resolve('verdaccio/bin/verdaccio');
  const child: ChildProcess = spawn(process.execPath, [bin, '--config', config, '--listen', `${host}:${port}`], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = join(dir, 'verdaccio.log');
  const out = createWriteStream(log);
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited ${child.exitCode}: ${readFileSync(log, 'utf8')}`);
    const answered = await fetch(`${url}-/ping`).then((response) => response.ok, () => false);
    if (answered) return { url, npmrc, log, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`verdaccio did not answer on ${url} in 30 s: ${readFileSync(log, 'utf8')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
