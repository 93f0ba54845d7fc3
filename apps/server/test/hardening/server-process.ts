import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The server package's directory, where `signet` runs from (the source or its build). */
export const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** One parsed line of a process's JSON log. */
export type LogLine = Record<string, unknown> & { msg?: string };

/** `signet serve` or `signet worker` running in a child process. */
export interface SignetProcess {
  pid: number;
  /** Where `signet serve` listens; the worker's lease owner for `signet worker`. */
  address: string;
  /** SIGKILL: no shutdown, no flush, as a crash or the OOM killer would end it. Resolves once it has exited. */
  kill9(): Promise<void>;
  /** SIGTERM (a graceful stop); resolves with the exit code once it has exited. */
  stop(): Promise<number | null>;
  /** What it has written to stderr so far. */
  stderr(): string;
  /**
   * Its log lines so far, when started with `keepLogs` (else none): the log is written in batches, so all of them
   * only once it has stopped.
   */
  logs(): LogLine[];
}

/** `signet serve` on a loopback port. */
export interface ServerProcess extends Omit<SignetProcess, 'address' | 'logs'> {
  url: string;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * How node runs `signet`: with `built` (the default) the build (`dist/cli/main.js`, made once per test run by
 * test/support/build-once.ts) with plain node, otherwise the source through tsx.
 */
export function signetEntry(built = true): string[] {
  return built ? ['dist/cli/main.js'] : ['--import', 'tsx', 'src/cli/main.ts'];
}

/** What each command says on stderr once it is ready, and where it is. */
const READY = {
  serve: /listening on (http:\/\/\S+)/,
  worker: /seal worker (\S+) running/,
};

/**
 * Starts `signet serve --port 0` (on 127.0.0.1) or `signet worker` with `env` over this process's environment
 * (log level warn unless `env` says otherwise), and resolves once it says it is ready. Rejects with its stderr when
 * it exits first or stays silent `timeoutMs`. With `keepLogs` its JSON log lines are kept for `logs()`; otherwise
 * they are read and dropped, so the pipe never fills and stalls it. It runs the build unless `built` is false
 * (`signetEntry`).
 * @example const worker = await startSignet('worker', { DATABASE_URL, LOG_LEVEL: 'info' }, { keepLogs: true });
 */
export function startSignet(
  command: 'serve' | 'worker',
  env: Record<string, string>,
  options: { timeoutMs?: number; keepLogs?: boolean; built?: boolean } = {},
): Promise<SignetProcess> {
  const { timeoutMs = 30_000, keepLogs = false, built = true } = options;
  const args = command === 'serve' ? ['serve', '--port', '0'] : ['worker'];
  const child = spawn(process.execPath, [...signetEntry(built), ...args], {
    cwd: SERVER_DIR,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  if (keepLogs) child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  else child.stdout!.resume();
  child.stderr!.setEncoding('utf8');
  const logs = () =>
    stdout
      .split('\n')
      .slice(0, -1)
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);

  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`signet ${command} ${reason}${stderr ? `:\n${stderr.trim()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`was not ready within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null, signal: string | null) => fail(`exited (${signal ?? code}) before it was ready`);
    child.once('exit', onExit);
    let started = false;
    child.stderr!.on('data', (text: string) => {
      if (stderr.length < 50_000) stderr += text;
      const ready = READY[command].exec(stderr);
      if (!ready || started) return;
      started = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({
        pid: child.pid!,
        address: ready[1]!,
        async kill9() {
          child.kill('SIGKILL');
          await exited(child);
        },
        async stop() {
          child.kill('SIGTERM');
          await exited(child);
          return child.exitCode;
        },
        stderr: () => stderr,
        logs,
      });
    });
  });
}

/**
 * Starts the real server, `signet serve --port 0` on 127.0.0.1, with `env` over this process's environment.
 * @example const server = await startServerProcess({ DATABASE_URL: 'file:/tmp/x/signet.db' }); await server.kill9();
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 30_000, options: { built?: boolean } = {}): Promise<ServerProcess> {
  const { address, logs: _logs, ...server } = await startSignet('serve', env, { timeoutMs, ...options });
  return { url: address, ...server };
}
