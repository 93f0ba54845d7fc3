import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../../errors.js';
import { residentBytes } from '../../process-memory.js';
import { DEFAULT_PREVIEW_LIMITS, type PreviewLimits } from '../preview.js';
import type { TaskReply, TaskRequest } from './protocol.js';
import type { PdfTaskErrorCodec, PdfTaskInput, PdfTaskKind, PdfTaskResult, PdfWorkerEntry } from './tasks.js';

export type { PdfTaskInput, PdfTaskKind, PdfTaskResult, PdfTasks, PdfWorkerEntry } from './tasks.js';

export interface PdfPoolOptions {
  /** Worker processes (default: one less than the cores, at least one). */
  workers: number;
  /** Wall time a task may take, from when a worker takes it (ms). */
  taskTimeoutMs: number;
  /** Resident memory one worker process may reach, JavaScript, PDFium and native together (MiB). */
  memoryLimitMb: number;
  /**
   * The most memory a task may be given with `runWithin` (MiB; default: `memoryLimitMb`): the workers' JavaScript
   * heap is sized for it, while every other task is still killed past `memoryLimitMb`.
   */
  taskMemoryCeilingMb?: number;
  /** Tasks waiting for a worker beyond which new ones are refused. */
  maxQueue: number;
  /** How long a task may wait for a worker before it is refused as busy (ms; default: `taskTimeoutMs`). */
  queueTimeoutMs?: number;
  /** PDFium's own caps inside a worker. */
  preview: PreviewLimits;
}

export const DEFAULT_PDF_POOL_OPTIONS: PdfPoolOptions = {
  // Two at least: one large seal must not hold the only worker while uploads and other seals wait (docs/decisions.md).
  workers: Math.max(2, availableParallelism() - 1),
  taskTimeoutMs: 10_000,
  memoryLimitMb: 512,
  maxQueue: 64,
  preview: DEFAULT_PREVIEW_LIMITS,
};

/** A task stopped at one of the pool's limits: its worker was killed and replaced. */
export class PdfLimitError extends Error {
  constructor(readonly limit: 'time' | 'memory' | 'image', message: string) {
    super(message);
    this.name = 'PdfLimitError';
  }
}

/** The queue is full: the caller should answer 503 and ask the client to retry. */
export class PdfPoolBusyError extends ApiError {
  constructor() {
    super('SERVICE_UNAVAILABLE', 'The server is busy processing PDFs; retry shortly', {
      details: { reason: 'the PDF processing queue is full' },
      headers: { 'Retry-After': '5' },
    });
  }
}

/** A task's own limits, where they differ from the pool's (`runWithin`). */
export interface PdfTaskLimits {
  /** Wall time from when a worker takes the task (ms; default `taskTimeoutMs`). */
  timeoutMs?: number;
  /** Resident memory of its worker while it runs (MiB; default `memoryLimitMb`, at most `taskMemoryCeilingMb`). */
  memoryLimitMb?: number;
}

/**
 * What the pool reports as it works (`observe`), for metrics kept outside it: each task that ran (its kind, its wall
 * time from when a worker took it, how it ended), each task refused as busy, and each worker it killed at a limit.
 */
export type PdfPoolEvent =
  | { type: 'task'; kind: string; ms: number; outcome: 'ok' | 'failed' | 'time' | 'memory' | 'image' | 'crashed' }
  | { type: 'busy'; kind: string }
  | { type: 'kill'; limit: 'time' | 'memory' };

interface Task {
  request: TaskRequest;
  /** When a worker took it (`performance.now()`). */
  startedAt?: number;
  timeoutMs: number;
  memoryLimitMb: number;
  /** Refuses the task as busy when it has waited too long for a worker. */
  expiry: NodeJS.Timeout;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Worker {
  child: ChildProcess;
  ready: boolean;
  /** It said it exits after its last answer: no task goes to it any more. */
  retiring?: boolean;
  task?: Task;
  /** Why the pool killed it, when it did. */
  killedFor?: PdfLimitError;
  timer?: NodeJS.Timeout;
  watch?: NodeJS.Timeout;
}

/** How often a busy worker's resident memory is read. */
const MEMORY_POLL_MS = 20;
/** The workers' nice value: they yield the CPU to the server's event loop. */
const WORKER_NICENESS = 10;
/**
 * The least JavaScript heap a worker is started with, whatever its memory cap: what Node 24 needs to load the worker
 * (Node 20 started in 64 MiB, 24 ran out of heap before it was ready). The cap itself is the resident-memory watch's.
 */
const MIN_OLD_SPACE_MB = 128;

/**
 * Runs PDF work (upload inspection, page-1 previews, sealing; submitted images decoded too) in a few worker
 * processes, never on the event loop, each task within a wall time and a memory cap, behind a bounded queue that
 * a task leaves as busy (503) when it waits longer than a task may run.
 *
 * A process rather than a worker thread, because a thread's `resourceLimits` bound only its JavaScript heap:
 * @libpdf/core's decoded streams are ArrayBuffers outside it, PDFium's WebAssembly memory and sharp's native memory
 * too. The pool
 * reads each busy worker's resident memory every 20 ms and kills it past the cap; PDFium's heap is also capped inside
 * the worker (`createCappedPdfium`), and its JavaScript heap by `--max-old-space-size`. A task over its time is
 * killed the same way. A killed or crashed worker is replaced by a new process, so no PDFium left broken by an abort
 * serves another task.
 *
 * The pool knows no task: its workers run the entry module it is given (`PdfWorkerEntry`), which serves the tasks
 * every domain registered (`PdfTasks`), and the tasks' own errors come back through their codecs. `createPdfPool`
 * (`src/pdf-worker/`) gives one with Signet's worker.
 * @example
 * const pool = new PdfPool({ ...DEFAULT_PDF_POOL_OPTIONS, workers: 1 }, PDF_WORKER);
 * const { pageCount } = await pool.run('inspect', bytes);
 * const sealed = await pool.run('seal', bytes, sealInput);
 */
export class PdfPool {
  readonly options: PdfPoolOptions;
  readonly #worker: PdfWorkerEntry;
  readonly #workers: Worker[] = [];
  readonly #queue: Task[] = [];
  readonly #listeners = new Set<(event: PdfPoolEvent) => void>();
  #nextId = 1;
  #closed = false;

  constructor(options: Partial<PdfPoolOptions>, worker: PdfWorkerEntry) {
    this.options = { ...DEFAULT_PDF_POOL_OPTIONS, ...options };
    this.#worker = worker;
  }

  /** Starts the worker processes now rather than on the first task (a server does, so its first upload is quick). */
  warm(): void {
    while (this.#workers.length < this.options.workers) this.#spawn();
  }

  /**
   * Runs a task in a worker, with the task's input when it takes one (`seal`). Rejects with `PdfLimitError` past a
   * limit, `PdfPoolBusyError` when the queue is full, the task's own `ApiError` (a refused upload) or domain error
   * (rebuilt by its codec: a `SealError` with its `retryable`), or an `Error` when the worker failed otherwise.
   */
  run<K extends PdfTaskKind>(
    kind: K,
    pdf: Uint8Array,
    ...input: PdfTaskInput<K> extends undefined ? [] : [PdfTaskInput<K>]
  ): Promise<PdfTaskResult<K>> {
    return this.runWithin({}, kind, pdf, ...input);
  }

  /**
   * `run` with the task's own time and memory limits (a seal's, scaled to its document): a `PdfLimitError` names
   * the limit it was given. The memory limit is capped at `taskMemoryCeilingMb`.
   * @example await pool.runWithin({ timeoutMs: 60_000, memoryLimitMb: 2048 }, 'seal', bytes, sealInput)
   */
  runWithin<K extends PdfTaskKind>(
    limits: PdfTaskLimits,
    kind: K,
    pdf: Uint8Array,
    ...input: PdfTaskInput<K> extends undefined ? [] : [PdfTaskInput<K>]
  ): Promise<PdfTaskResult<K>> {
    const timeoutMs = limits.timeoutMs ?? this.options.taskTimeoutMs;
    const memoryLimitMb = Math.min(limits.memoryLimitMb ?? this.options.memoryLimitMb, this.#memoryCeilingMb());
    if (this.#closed) return Promise.reject(new Error('the PDF pool is closed'));
    if (!this.#workers.some(takesTask) && this.#queue.length >= this.options.maxQueue) {
      this.#emit({ type: 'busy', kind });
      return Promise.reject(new PdfPoolBusyError());
    }
    return new Promise<PdfTaskResult<K>>((resolve, reject) => {
      const request: TaskRequest = { id: this.#nextId++, kind, pdf, input: input[0] };
      const waitMs = this.options.queueTimeoutMs ?? this.options.taskTimeoutMs;
      const expire = () => {
        const waiting = this.#queue.indexOf(task);
        if (waiting < 0) return;
        // Time spent while a worker is still starting is the pool's, not the queue's: wait on for it.
        if (this.#workers.some((worker) => !worker.ready)) {
          task.expiry = setTimeout(expire, waitMs);
          return;
        }
        this.#queue.splice(waiting, 1);
        this.#emit({ type: 'busy', kind });
        reject(new PdfPoolBusyError());
        this.#holdProcess();
      };
      const task: Task = {
        request,
        timeoutMs,
        memoryLimitMb,
        expiry: setTimeout(expire, waitMs),
        resolve: resolve as Task['resolve'],
        reject,
      };
      this.#queue.push(task);
      if (this.#workers.length < this.options.workers) this.#spawn();
      this.#dispatch();
    });
  }

  /** Tasks running and waiting, and the worker processes' ids. */
  stats(): { running: number; queued: number; pids: number[] } {
    return {
      running: this.#workers.filter((worker) => worker.task).length,
      queued: this.#queue.length,
      pids: this.#workers.flatMap((worker) => (worker.child.pid === undefined ? [] : [worker.child.pid])),
    };
  }

  /**
   * Calls `listener` with each `PdfPoolEvent` (a task's end, a refusal, a kill); returns what stops it. A listener
   * that throws is the caller's bug and is not caught.
   * @example const stop = pool.observe((event) => { if (event.type === 'kill') kills.inc({ limit: event.limit }) });
   */
  observe(listener: (event: PdfPoolEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Refuses new tasks, fails the waiting ones and stops every worker. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const task of this.#queue.splice(0)) {
      clearTimeout(task.expiry);
      task.reject(new Error('the PDF pool is closed'));
    }
    await Promise.all(
      this.#workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.child.exitCode !== null || worker.child.signalCode !== null) return resolve();
            worker.child.once('exit', () => resolve());
            // An idle worker is unreferenced: without this, waiting for its exit would not keep the process alive.
            worker.child.ref();
            worker.child.kill('SIGKILL');
          }),
      ),
    );
  }

  #memoryCeilingMb(): number {
    return Math.max(this.options.memoryLimitMb, this.options.taskMemoryCeilingMb ?? 0);
  }

  #spawn(): void {
    const memoryLimitMb = this.#memoryCeilingMb();
    const child = fork(fileURLToPath(this.#worker.module), [JSON.stringify(this.options.preview)], {
      execArgv: [...loaderArgs(this.#worker.module), `--max-old-space-size=${Math.max(MIN_OLD_SPACE_MB, Math.floor(memoryLimitMb / 2))}`],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // A process group of its own: a Ctrl-C in the terminal (SIGINT to the whole foreground group) reaches the
      // server, which finishes its work and closes the pool, and not the workers, not even one still starting, before
      // it can ignore the signal. A worker whose parent is gone exits (`child.ts`).
      detached: true,
    });
    // Below the server in the scheduler's eyes: on a busy machine requests are answered first, PDFs wait.
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, WORKER_NICENESS);
      } catch {
        // Not permitted here: the worker runs at the server's priority.
      }
    }
    const worker: Worker = { child, ready: false };
    this.#workers.push(worker);
    this.#holdProcess();
    child.on('message', (message: TaskReply | { ready: true }) => {
      if ('ready' in message) {
        worker.ready = true;
      } else if (worker.task?.request.id === message.id) {
        if (message.exit) worker.retiring = true;
        const task = this.#finish(worker)!;
        const outcome = message.ok ? 'ok' : message.error.kind === 'limit' ? message.error.limit : 'failed';
        this.#ended(task, outcome);
        if (message.ok) task.resolve(message.value);
        else task.reject(failure(message.error, this.#worker.errors));
      }
      this.#dispatch();
    });
    child.on('exit', (code, signal) => {
      this.#workers.splice(this.#workers.indexOf(worker), 1);
      const task = this.#finish(worker);
      if (task) {
        const error = worker.killedFor ?? crashed(code, signal);
        this.#ended(task, error instanceof PdfLimitError ? error.limit : 'crashed');
        task.reject(error);
      }
      if (!worker.ready && !worker.killedFor) {
        // It died before it could take a task (a broken install): fail what waits rather than start it again and
        // again; the next task tries once more.
        for (const waiting of this.#queue.splice(0)) {
          clearTimeout(waiting.expiry);
          waiting.reject(new Error(`the PDF worker could not start (${signal ?? `exit code ${code}`})`));
        }
      } else if (!this.#closed && (this.#queue.length > 0 || this.#workers.length < this.options.workers)) {
        this.#spawn();
      }
      this.#dispatch();
    });
    child.on('error', () => child.kill('SIGKILL'));
  }

  #dispatch(): void {
    this.#assign();
    this.#holdProcess();
  }

  #assign(): void {
    for (const worker of this.#workers) {
      if (this.#queue.length === 0) return;
      if (!takesTask(worker)) continue;
      const task = this.#queue.shift()!;
      clearTimeout(task.expiry);
      worker.task = task;
      task.startedAt = performance.now();
      worker.child.send(task.request);
      worker.timer = setTimeout(
        () => this.#kill(worker, new PdfLimitError('time', `the PDF took longer than ${task.timeoutMs} ms to process`)),
        task.timeoutMs,
      );
      worker.watch = setInterval(() => {
        const resident = residentBytes(worker.child.pid!);
        if (resident !== undefined && resident > task.memoryLimitMb * 1024 * 1024) {
          this.#kill(worker, new PdfLimitError('memory', `the PDF needs more than ${task.memoryLimitMb} MiB of memory to process`));
        }
      }, MEMORY_POLL_MS);
    }
  }

  #kill(worker: Worker, reason: PdfLimitError): void {
    if (!worker.killedFor && (reason.limit === 'time' || reason.limit === 'memory')) this.#emit({ type: 'kill', limit: reason.limit });
    worker.killedFor ??= reason;
    worker.child.kill('SIGKILL');
  }

  #emit(event: PdfPoolEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  #ended(task: Task, outcome: Extract<PdfPoolEvent, { type: 'task' }>['outcome']): void {
    if (this.#listeners.size === 0) return;
    this.#emit({ type: 'task', kind: task.request.kind, ms: performance.now() - (task.startedAt ?? performance.now()), outcome });
  }

  /** Clears a worker's task and its timers. */
  #finish(worker: Worker): Task | undefined {
    const task = worker.task;
    clearTimeout(worker.timer);
    clearInterval(worker.watch);
    worker.task = undefined;
    return task;
  }

  /** The workers keep the process alive while any task is running or waiting, and not while the pool is idle. */
  #holdProcess(): void {
    // Closing waits for every worker's exit: one worker's exit must not unreference the others being waited for.
    const busy = this.#closed || this.#queue.length > 0 || this.#workers.some((worker) => worker.task);
    for (const { child } of this.#workers) {
      const channel = child.channel as { ref?: () => void; unref?: () => void } | undefined;
      if (busy) {
        child.ref();
        channel?.ref?.();
      } else {
        child.unref();
        channel?.unref?.();
      }
    }
  }
}

/** Whether a task may be given to `worker` now: started, idle, and neither being killed nor about to exit. */
function takesTask(worker: Worker): boolean {
  return worker.ready && !worker.task && !worker.killedFor && !worker.retiring;
}

/**
 * How a worker process runs its entry: a TypeScript entry (the source, in tests and `pnpm signet`) through tsx, a
 * devDependency resolved only then; a built `.js` entry with plain node.
 */
function loaderArgs(entry: URL): string[] {
  return entry.pathname.endsWith('.ts') ? ['--import', createRequire(import.meta.url).resolve('tsx')] : [];
}

function failure(error: Extract<TaskReply, { ok: false }>['error'], codecs: readonly PdfTaskErrorCodec[]): Error {
  if (error.kind === 'api') return new ApiError(error.code, error.message, { status: error.status, details: error.details });
  if (error.kind === 'limit') return new PdfLimitError(error.limit, error.message);
  const codec = error.kind === 'task' ? codecs.find((candidate) => candidate.code === error.code) : undefined;
  if (error.kind === 'task' && codec) return codec.decode(error.message, error.data);
  return new Error(error.message);
}

function crashed(code: number | null, signal: NodeJS.Signals | null): Error {
  // V8 aborts (SIGABRT, or exit code 134 through a wrapper) when the worker's JavaScript heap is exhausted.
  if (signal === 'SIGABRT' || code === 134) return new PdfLimitError('memory', 'the PDF needs more memory than allowed to process');
  return new Error(`the PDF worker stopped unexpectedly (${signal ?? `exit code ${code}`})`);
}
