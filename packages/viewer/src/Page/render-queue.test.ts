import { describe, expect, it } from 'vitest';
import { RenderQueue } from './render-queue.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('RenderQueue', () => {
  it('runs the lowest-ranked job first, one at a time', async () => {
    const ranks: Record<number, number> = { 1: 30, 2: 10, 3: 20 };
    const queue = new RenderQueue((page) => ranks[page]!);
    const order: number[] = [];
    let running = 0;
    let most = 0;
    const job = (page: number) => async () => {
      running++;
      most = Math.max(most, running);
      order.push(page);
      await tick();
      running--;
    };
    for (const page of [1, 2, 3]) queue.enqueue(page, job(page));
    while (order.length < 3 || running > 0) await tick();
    expect(order).toEqual([2, 3, 1]);
    expect(most).toBe(1);
  });

  it('drops a queued job and aborts a running one', async () => {
    const queue = new RenderQueue((page) => page);
    const ran: number[] = [];
    let aborted = false;
    const cancelFirst = queue.enqueue(1, async (signal) => {
      ran.push(1);
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      aborted = true;
    });
    const cancelSecond = queue.enqueue(2, async () => void ran.push(2));
    await tick();
    cancelSecond();
    cancelFirst();
    await tick();
    await tick();
    expect(aborted).toBe(true);
    expect(ran).toEqual([1]);
  });

  it('cancels everything at once, and still runs what is queued afterwards', async () => {
    const queue = new RenderQueue(() => 0);
    const aborted: number[] = [];
    const ran: number[] = [];
    const job = (page: number) => async (signal: AbortSignal) => {
      if (signal.aborted) return void aborted.push(page);
      ran.push(page);
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      aborted.push(page);
    };
    queue.enqueue(1, job(1));
    queue.enqueue(2, job(2));
    await tick();
    queue.cancelAll();
    await tick();
    queue.enqueue(3, async () => void ran.push(3));
    await tick();
    await tick();
    expect(ran).toEqual([1, 3]);
    expect(aborted).toEqual([1]);
  });
});
