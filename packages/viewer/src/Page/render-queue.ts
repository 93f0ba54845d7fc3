/** Work that draws one page; it should stop soon after `signal` aborts. */
export type RenderJob = (signal: AbortSignal) => Promise<void>;

interface Entry {
  pageNumber: number;
  run: RenderJob;
  controller: AbortController;
  running: boolean;
}

/**
 * Draws pages a few at a time, the most urgent first. Pages are drawn on the main thread, so drawing every page
 * near the viewport at once would delay the one the reader is looking at; here each free slot goes to the queued
 * page with the lowest `rank` (e.g. its distance from the viewport's centre), read when the slot frees up.
 * @example
 * const queue = new RenderQueue((page) => distanceFromCentre(page));
 * const cancel = queue.enqueue(3, async (signal) => { await draw(3, signal); });
 */
export class RenderQueue {
  readonly #rank: (pageNumber: number) => number;
  readonly #concurrency: number;
  readonly #entries = new Set<Entry>();
  #running = 0;
  #pumpScheduled = false;

  constructor(rank: (pageNumber: number) => number, concurrency = 1) {
    this.#rank = rank;
    this.#concurrency = concurrency;
  }

  /** Queues a job; the returned function drops it, or aborts it if it is running. */
  enqueue(pageNumber: number, run: RenderJob): () => void {
    const entry: Entry = { pageNumber, run, controller: new AbortController(), running: false };
    this.#entries.add(entry);
    this.#schedulePump();
    return () => this.#cancel(entry);
  }

  /**
   * Aborts every queued and running job (a safety net on unmount: each page also cancels its own). Work queued
   * later runs normally, which is what Strict Mode's remount needs.
   */
  cancelAll(): void {
    for (const entry of this.#entries) this.#cancel(entry);
  }

  /** A running job is only aborted: it leaves the set (and frees its slot) when it settles. */
  #cancel(entry: Entry): void {
    entry.controller.abort();
    if (!entry.running) this.#entries.delete(entry);
  }

  /** Pages queued in one React commit should compete for the first slot, so picking waits for a microtask. */
  #schedulePump(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    queueMicrotask(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#running < this.#concurrency) {
      const next = this.#mostUrgent();
      if (!next) return;
      next.running = true;
      this.#running++;
      void next.run(next.controller.signal).finally(() => {
        this.#running--;
        this.#entries.delete(next);
        this.#schedulePump();
      });
    }
  }

  #mostUrgent(): Entry | undefined {
    let best: Entry | undefined;
    let bestRank = Infinity;
    for (const entry of this.#entries) {
      if (entry.running) continue;
      const rank = this.#rank(entry.pageNumber);
      if (rank < bestRank || !best) {
        best = entry;
        bestRank = rank;
      }
    }
    return best;
  }
}
