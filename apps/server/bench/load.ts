import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';
import { measureCpu, type CpuUse } from './cpu.js';

/** One measured load phase. */
export interface PhaseResult {
  name: string;
  /** Mean of autocannon's per-second samples. */
  requestsPerSecond: number;
  /** Latency percentiles in ms, from every response's own timing (autocannon's histogram keeps whole ms). */
  p50: number;
  p99: number;
  completed: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCounts: Record<string, number>;
  /** The first body of each non-2xx status (warm-up included), cut to 300 characters. */
  errorBodies: Map<number, string>;
  durationSeconds: number;
  /**
   * CPU of the load generator, the server under load, the processes of `watchPids` together (`watched`), and of
   * anything else, while measured (Linux only).
   */
  cpu: { generator: number; server: number; watched: number; other: number } | null;
  /** When the measured window began and ended (epoch ms). */
  window: { start: number; end: number };
}

export interface PhaseOptions {
  name: string;
  url: string;
  /** Process id of the server behind `url`, for the CPU accounting. */
  serverPid: number;
  /** Other processes whose CPU is counted apart from "other" (a server's PDF workers). */
  watchPids?: number[];
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  connections: number;
  /** Seconds of measured load. */
  duration: number;
  /** Seconds of load before it, not measured (0: none). */
  warmup: number;
  /**
   * Gives each request its body (and anything else it needs); called once per request, on the load generator.
   * `context` belongs to the connection, which has one request in flight: `onResponse` sees the same object.
   */
  setupRequest?: (request: autocannon.Request, context: Record<string, unknown>) => autocannon.Request;
  /** Sees every response's status and body, including the warm-up's. */
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

/** A growable list of latencies (ms). */
class Samples {
  #values = new Float64Array(1 << 16);
  #length = 0;

  push(value: number): void {
    if (this.#length === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#length++] = value;
  }

  percentile(p: number): number {
    if (this.#length === 0) return Number.NaN;
    const sorted = this.#values.subarray(0, this.#length).sort();
    return sorted[Math.min(this.#length - 1, Math.ceil((p / 100) * this.#length) - 1)]!;
  }
}

function fire(
  options: PhaseOptions,
  duration: number,
  samples: Samples | null,
  errorBodies: Map<number, string>,
): Promise<autocannon.Result> {
  const onResponse = (status: number, body: string, context: Record<string, unknown>) => {
    if ((status < 200 || status > 299) && !errorBodies.has(status)) errorBodies.set(status, body.slice(0, 300));
    options.onResponse?.(status, body, context);
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration,
        pipelining: 1,
        timeout: 30,
        requests: [
          {
            method: options.method,
            path: options.path,
            headers: options.headers ?? {},
            ...(options.setupRequest
              ? { setupRequest: (request, context) => options.setupRequest!(request, context as Record<string, unknown>) }
              : {}),
            onResponse: (status, body, context) => onResponse(status, body, context as Record<string, unknown>),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (samples) {
      // The run tracker re-emits each client's response with the client first (the typings omit it).
      (instance as unknown as EventEmitter).on('response', (_client: unknown, _status: number, _bytes: number, ms: number) =>
        samples.push(ms),
      );
    }
  });
}

/**
 * Warms up for `warmup` seconds, then measures `duration` seconds of load with `connections` keep-alive
 * connections on loopback (one request in flight per connection).
 * @example await runPhase({ name: 'ceiling GET', url, method: 'GET', path: '/x', connections: 50, duration: 10, warmup: 2 })
 */
export async function runPhase(options: PhaseOptions): Promise<PhaseResult> {
  const errorBodies = new Map<number, string>();
  if (options.warmup > 0) await fire(options, options.warmup, null, errorBodies);
  const samples = new Samples();
  const watched = options.watchPids ?? [];
  const start = Date.now();
  const cpuWindow = measureCpu([process.pid, options.serverPid, ...watched]);
  const result = await fire(options, options.duration, samples, errorBodies);
  const cpu: CpuUse | null = cpuWindow.stop();
  const end = Date.now();
  const statusCounts: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCounts[status] = count ?? 0;
  return {
    name: options.name,
    requestsPerSecond: result.requests.average,
    p50: samples.percentile(50),
    p99: samples.percentile(99),
    completed: Object.values(statusCounts).reduce((total, count) => total + count, 0),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCounts,
    errorBodies,
    durationSeconds: result.duration,
    cpu: cpu && {
      generator: cpu.cores[0]!,
      server: cpu.cores[1]!,
      watched: cpu.cores.slice(2).reduce((total, cores) => total + cores, 0),
      other: cpu.otherCores,
    },
    window: { start, end },
  };
}
