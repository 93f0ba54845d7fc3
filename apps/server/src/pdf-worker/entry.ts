/**
 * A Signet PDF worker process: the module the pool forks (`PDF_WORKER`), from the source through tsx in tests and
 * `pnpm signet`, or built (`dist/pdf-worker/entry.js`) with plain node. It serves every registered task.
 */
import { serveTasks } from '../pdf/pool/child.js';
import { PDF_TASK_ERRORS, PDF_TASKS } from './registry.js';

serveTasks(PDF_TASKS, PDF_TASK_ERRORS);
