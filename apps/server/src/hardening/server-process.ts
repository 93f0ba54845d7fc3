import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The server package's directory, where `signet serve` runs from. */
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** `signet serve` running in a child process on a loopback port. */
export interface ServerProcess {
  url: string;
  pid: number;
  /** SIGKILL: no shutdown, no flush, as a crash or the OOM killer would end it. Resolves once it has exited. */
  kill9(): Promise<void>;
  /** SIGTERM (a graceful stop); resolves with the exit code once it has exited. */
  stop(): Promise<number | null>;
  /** What it has written to stderr so far. */
  stderr(): string;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts the real server, `signet serve --port 0` on 127.0.0.1, with `env` over this process's environment, and
 * resolves once it says where it listens. Rejects with its stderr when it exits or stays silent for `timeoutMs`.
 * @example const server = await startServerProcess({ DATABASE_URL: 'file:/tmp/x/signet.db' }); await server.kill9();
 */
export function startServerProcess(env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0'], {
    cwd: SERVER_DIR,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  // Its log goes to stdout: read and dropped, so the pipe never fills and stalls it.
  child.stdout!.resume();
  child.stderr!.setEncoding('utf8');

  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`signet serve ${reason}${stderr ? `:\n${stderr.trim()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`said nothing of listening within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null, signal: string | null) => fail(`exited (${signal ?? code}) before listening`);
    child.once('exit', onExit);
    let started = false;
    child.stderr!.on('data', (text: string) => {
      if (stderr.length < 50_000) stderr += text;
      const listening = /listening on (http:\/\/\S+)/.exec(stderr);
      if (!listening || started) return;
      started = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({
        url: listening[1]!,
        pid: child.pid!,
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
      });
    });
  });
}
