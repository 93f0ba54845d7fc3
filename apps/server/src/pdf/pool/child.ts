/**
 * The loop of a PDF worker process (see `pool.ts`): runs one task at a time, as the pool sends them, and answers
 * each with its result or its error. After an error that may have left PDFium broken it exits, and the pool starts a
 * fresh one. Knows no task: the worker's entry passes every domain's definitions (`PdfWorkerEntry`).
 */
import { ApiError } from '../../errors.js';
import { PreviewLimitError, type PreviewLimits } from '../preview.js';
import type { TaskReply, TaskRequest } from './protocol.js';
import type { PdfTaskContext, PdfTaskDefinition, PdfTaskDefinitions, PdfTaskErrorCodec, PdfTaskHandler, PdfTaskKind } from './tasks.js';

type AnyDefinition = PdfTaskDefinition<PdfTaskKind>;

/**
 * Serves the pool's tasks in this process, with `tasks` (each loaded on its first use) and the codecs of their own
 * errors. Called once, by the worker's entry module.
 * @example serveTasks({ ...documentPdfTasks, ...sealingPdfTasks }, [sealErrorCodec]);
 */
export function serveTasks(tasks: PdfTaskDefinitions, errors: readonly PdfTaskErrorCodec[]): void {
  // @libpdf/core and PDFium report what they skip or abort on with console.log/warn, and a hostile file can have
  // millions of such things: none reach the log.
  console.log = console.warn = () => {};

  /** PDFium's caps, the same for every task of this process: given once, as its argument, when the pool starts it. */
  const context: PdfTaskContext = { preview: JSON.parse(process.argv[2]!) as PreviewLimits };
  const handlers = new Map<string, Promise<PdfTaskHandler<PdfTaskKind>>>();

  function handler(kind: string, definition: AnyDefinition): Promise<PdfTaskHandler<PdfTaskKind>> {
    let loaded = handlers.get(kind);
    if (!loaded) handlers.set(kind, (loaded = definition.load()));
    return loaded;
  }

  async function run(request: TaskRequest): Promise<TaskReply> {
    const definition = (tasks as Record<string, AnyDefinition | undefined>)[request.kind];
    try {
      if (!definition) throw new Error(`the PDF worker has no task "${request.kind}"`);
      const perform = await handler(request.kind, definition);
      return { id: request.id, ok: true, value: await perform(request.pdf, request.input as never, context) };
    } catch (error) {
      return { id: request.id, ...failure(error, definition), ok: false };
    }
  }

  function failure(error: unknown, definition: AnyDefinition | undefined): Omit<Extract<TaskReply, { ok: false }>, 'id' | 'ok'> {
    if (error instanceof ApiError) {
      return { error: { kind: 'api', code: error.code, message: error.message, status: error.status, details: error.details } };
    }
    const message = error instanceof Error ? error.message : String(error);
    for (const codec of errors) {
      const data = codec.encode(error);
      if (data !== undefined) return { error: { kind: 'task', code: codec.code, message, data } };
    }
    if (error instanceof PreviewLimitError) {
      // Past PDFium's heap cap the instance aborted and grew to its cap: a new process gives that memory back.
      return { error: { kind: 'limit', limit: error.limit, message }, exit: error.limit === 'memory' };
    }
    // PDFium failed: the task has already dropped its instance, but an abort may have left more behind it.
    return { error: { kind: 'failed', message }, exit: definition?.exitOnFailure === true };
  }

  // The pool decides when a worker stops: it kills it, or the worker ends when its parent is gone. A Ctrl-C in the
  // terminal, or a SIGTERM to the whole process group, reaches the workers too, and must not cut short the tasks a
  // server finishes while it shuts down (docs/decisions.md, "Operations: metrics, readiness, shutdown").
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => {});
  process.on('disconnect', () => process.exit(0));
  // A parent that went away while this worker started or worked (the server stopping) leaves nobody to answer: the
  // worker exits quietly rather than throw on the closed channel.
  process.on('message', (request: TaskRequest) => {
    void run(request).then((reply) => {
      process.send!(reply, (error: Error | null) => {
        if (reply.exit || error) process.exit(0);
      });
    });
  });
  const preloading = Object.entries(tasks as Record<string, AnyDefinition>).filter(([, definition]) => definition.preload);
  void Promise.all(preloading.map(([kind, definition]) => handler(kind, definition).catch(() => undefined))).then(() =>
    process.send!({ ready: true }, (error: Error | null) => {
      if (error) process.exit(0);
    }),
  );
}
