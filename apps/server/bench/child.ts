import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A server running in a child process, found at `url`. */
export interface ChildServer {
  url: string;
  pid: number;
  /** SIGTERM, then the exit code once it has exited (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | null>;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * Runs `node [nodeArgs] --import tsx <script> [args]` in `cwd` and waits for the first stdout line, a JSON object
 * with the server's `url`. Rejects, with the child's stderr, when it exits or stays silent for `timeoutMs`.
 * @example const server = await startChild({ script: 'bench/ceiling.ts', args: [file], cwd, env: process.env })
 */
export function startChild(options: {
  script: string;
  args?: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  nodeArgs?: string[];
  timeoutMs?: number;
}): Promise<ChildServer> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', options.script, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    if (stderr.length < 20_000) stderr += text;
  });

  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${options.script} ${reason}${stderr ? `:\n${stderr.trim()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`printed no URL within ${options.timeoutMs ?? 60_000} ms`), options.timeoutMs ?? 60_000);
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before printing its URL`));
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      let url: string;
      try {
        url = (JSON.parse(line) as { url: string }).url;
      } catch {
        fail(`printed "${line.slice(0, 200)}" instead of {"url": …}`);
        return;
      }
      // Anything else it prints is drained, never left to fill the pipe.
      lines.on('line', () => {});
      resolve({
        url,
        pid: child.pid!,
        async stop(graceMs = 15_000) {
          const exit = exited(child);
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
          const code = await exit;
          clearTimeout(killer);
          return code;
        },
      });
    });
  });
}

/**
 * The real server (`bench/serve.ts`) in a child process, on `DATABASE_URL`, with its log in `log` and no seal worker
 * unless `env` says otherwise; `env` adds to this process's environment.
 * @example const server = await startBenchServer(appDir, fixtures.databaseUrl, join(dir, 'server.log'), { SIGNET_SMTP_URL })
 */
export function startBenchServer(appDir: string, databaseUrl: string, log: string, env: NodeJS.ProcessEnv = {}): Promise<ChildServer> {
  return startChild({
    script: 'bench/serve.ts',
    cwd: appDir,
    env: { ...process.env, DATABASE_URL: databaseUrl, SEAL_WORKER: 'false', BENCH_SERVER_LOG: log, ...env },
  });
}
