import { z } from 'zod';
import { PADES_LEVELS, type PadesLevel } from '@signet/contract';
import { DEFAULT_CONNECTION_LIMITS as LIMITS, type ConnectionLimits } from './http/node-server.js';
import { parseTrustProxy, type TrustProxy } from './middleware/api-key/client-ip.js';
import { DEFAULT_PDF_POOL_OPTIONS, type PdfPoolOptions } from './pdf/pool/index.js';
import { DEFAULT_PREVIEW_LIMITS } from './pdf/preview.js';
import { DEFAULT_SEAL_LIMITS, type SealLimits } from './sealing/seal-limits.js';
import { parsePkcs11Uri, type Pkcs11Location } from './sealing/signing/pkcs11-config.js';

/**
 * Standard Webhooks' retry schedule: the delay before each attempt, the first immediate; ±10 % jitter is applied to
 * each (`webhooks/schedule.ts`).
 */
export const DEFAULT_RETRY_SCHEDULE_MS = [0, 5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400].map((s) => s * 1000);

const milliseconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  SIGNET_SECRET: z.string().min(32, 'SIGNET_SECRET must be at least 32 characters').optional(),
  SIGNET_METRICS_TOKEN: z
    .string()
    .min(32, 'SIGNET_METRICS_TOKEN must be at least 32 characters')
    .regex(/^[\x21-\x7e]+$/, 'SIGNET_METRICS_TOKEN must be printable ASCII without spaces')
    .optional(),
  PUBLIC_BASE_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  DOCUMENT_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  MAX_PDF_BYTES: z.coerce.number().int().positive().default(25 * 1024 * 1024),
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((text, ctx) => {
      try {
        return parseTrustProxy(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `false, true, a hop count or proxy addresses: ${(error as Error).message}` });
        return z.NEVER;
      }
    }),
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(30),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  HEADERS_TIMEOUT_MS: milliseconds(LIMITS.headersTimeoutMs),
  REQUEST_TIMEOUT_MS: milliseconds(LIMITS.requestTimeoutMs),
  BODY_TIMEOUT_MS: milliseconds(LIMITS.bodyTimeoutMs),
  BODY_MIN_BYTES_PER_SECOND: z.coerce.number().int().positive().default(LIMITS.bodyMinBytesPerSecond),
  KEEP_ALIVE_TIMEOUT_MS: milliseconds(LIMITS.keepAliveTimeoutMs),
  PDF_WORKERS: z.coerce.number().int().min(1).max(64).default(DEFAULT_PDF_POOL_OPTIONS.workers),
  PDF_TASK_TIMEOUT_MS: z.coerce.number().int().min(100).default(DEFAULT_PDF_POOL_OPTIONS.taskTimeoutMs),
  PDF_WORKER_MEMORY_MB: z.coerce.number().int().min(128).default(DEFAULT_PDF_POOL_OPTIONS.memoryLimitMb),
  PDF_QUEUE_MAX: z.coerce.number().int().min(0).default(DEFAULT_PDF_POOL_OPTIONS.maxQueue),
  PDFIUM_HEAP_MB: z.coerce.number().int().min(16).max(2048).default(DEFAULT_PREVIEW_LIMITS.heapBytes / 1024 / 1024),
  PDF_MAX_IMAGE_PIXELS: z.coerce.number().int().positive().default(DEFAULT_PREVIEW_LIMITS.maxImagePixels),
  SIGNET_SIGNING_P12: z.string().optional(),
  SIGNET_SIGNING_P12_PASSWORD: z.string().optional(),
  SIGNET_SIGNING_PKCS11: z
    .string()
    .transform((uri, ctx) => {
      try {
        return parsePkcs11Uri(uri);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    })
    .optional(),
  SIGNET_SIGNING_PKCS11_PIN: z.string().optional(),
  SIGNET_SIGNING_PKCS11_CHAIN: z.string().optional(),
  SIGNET_TSA_URL: z.url().optional(),
  SIGNET_TSA_TIMEOUT_MS: milliseconds(5000),
  SIGNET_PADES_LEVEL: z.enum(PADES_LEVELS).optional(),
  SIGNET_REVOCATION_TIMEOUT_MS: milliseconds(5000),
  SEAL_WORKER: z.enum(['true', 'false']).default('true'),
  SEAL_POLL_MS: milliseconds(1000),
  SEAL_LEASE_MS: milliseconds(60_000),
  SEAL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(8),
  SEAL_RETRY_BASE_MS: milliseconds(2000),
  SEAL_TIMEOUT_PER_PAGE_MS: z.coerce.number().min(0).default(DEFAULT_SEAL_LIMITS.msPerPage),
  SEAL_TIMEOUT_PER_MIB_MS: z.coerce.number().min(0).default(DEFAULT_SEAL_LIMITS.msPerMib),
  SEAL_TIMEOUT_MAX_MS: z.coerce.number().int().min(100).default(DEFAULT_SEAL_LIMITS.maxMs),
  SEAL_MEMORY_MB: z.coerce.number().int().min(128).default(DEFAULT_SEAL_LIMITS.memoryMb),
  SIGNET_WEBHOOKS_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  WEBHOOK_DISPATCHER: z.enum(['true', 'false']).default('true'),
  WEBHOOK_POLL_MS: milliseconds(1000),
  WEBHOOK_TIMEOUT_MS: milliseconds(15_000),
  WEBHOOK_LEASE_MS: milliseconds(60_000),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(64),
  WEBHOOK_MAX_ENDPOINTS: z.coerce.number().int().min(1).max(1000).default(20),
  WEBHOOK_RETRY_SCHEDULE_MS: z
    .string()
    .default(DEFAULT_RETRY_SCHEDULE_MS.join(','))
    .transform((text, ctx) => {
      const delays = text.split(',').map((part) => Number(part.trim()));
      if (delays.length === 0 || delays.some((delay) => !Number.isInteger(delay) || delay < 0)) {
        ctx.addIssue({ code: 'custom', message: 'a comma-separated list of delays in milliseconds, the first one usually 0' });
        return z.NEVER;
      }
      return delays;
    }),
  RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
  SIGNET_SMTP_URL: z
    .url()
    .refine((url) => /^smtps?:\/\//.test(url), 'an smtp:// or smtps:// address, e.g. smtp://user:password@mail.example.com:587')
    .optional(),
  SIGNET_MAIL_FROM: z.string().min(3).max(320).default('Signet <signet@localhost>'),
  SIGNET_MAIL_TIMEOUT_MS: milliseconds(15_000),
});

/** The server's settings, read once from the environment (docs/operations.md, "Configuration"). */
export interface Config {
  port: number;
  host: string;
  /** Unset: embedded SQLite under `./.signet/`; `file:<path>`: SQLite there; `postgres://…`: PostgreSQL. */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** HMAC key of document tokens; resolved by `resolveSecret` when not given. */
  secret: string | undefined;
  /** `SIGNET_METRICS_TOKEN`: the bearer token `GET /metrics` asks for; unset, the endpoint answers 404. */
  metricsToken: string | undefined;
  /** Base of `documentUrl`; the request's own origin when unset. */
  publicBaseUrl: string | undefined;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
  documentTokenTtlSeconds: number;
  maxPdfBytes: number;
  maxBodyBytes: number;
  /** Which proxies' `X-Forwarded-For` entries are believed when deriving the client IP (none by default). */
  trustProxy: TrustProxy;
  authFailuresPerMinute: number;
  shutdownTimeoutMs: number;
  /** How long a connection may take over headers, body and the whole request, and stay idle between requests. */
  connections: ConnectionLimits;
  /** The PDF worker pool: processes, per-task time and memory, queue bound, PDFium's heap and image caps. */
  pdfPool: PdfPoolOptions;
  sealing: SealingConfig;
  webhooks: WebhooksConfig;
  /** `RETENTION_DAYS`: completed documents are erased that many days after their last signature; unset, kept. */
  retentionDays: number | undefined;
  /** E-mail (docs/email.md): unset without `SIGNET_SMTP_URL`, and nothing is sent. */
  mail: MailConfig | undefined;
}

/** How Signet sends e-mail (docs/email.md). */
export interface MailConfig {
  /** `SIGNET_SMTP_URL`: the SMTP server, `smtp://` (STARTTLS when offered) or `smtps://`, with its credentials. */
  smtpUrl: string;
  /** `SIGNET_MAIL_FROM`: the sender, `Name <address>`. */
  from: string;
  /** How long connecting, the greeting and each reply may take (ms). */
  timeoutMs: number;
}

/** How webhook events reach the host's endpoints (docs/api-guide.md, "Webhooks"). */
export interface WebhooksConfig {
  /** `SIGNET_WEBHOOKS_ALLOW_PRIVATE`: endpoints on loopback, private and link-local addresses are allowed. */
  allowPrivate: boolean;
  /** Whether `signet serve` delivers webhooks itself (`WEBHOOK_DISPATCHER=false`: only `signet worker` does). */
  dispatcher: boolean;
  /** How often a dispatcher looks for due deliveries when nothing woke it (ms). */
  pollMs: number;
  /** How long one attempt may take, connection to the end of the answer (ms). */
  timeoutMs: number;
  /** How long a taken delivery is its dispatcher's before another may send it again (ms); above `timeoutMs`. */
  leaseMs: number;
  /** Attempts under way at once, per process. */
  concurrency: number;
  /** Endpoints one organization may register; so also the most deliveries one event creates. */
  maxEndpoints: number;
  /** The delay before each attempt (ms): as many attempts as delays, then the delivery fails. */
  retryScheduleMs: number[];
}

/** How completed submissions become sealed PDFs (docs/api-guide.md, "The signed document"). */
export interface SealingConfig {
  /** `SIGNET_SIGNING_P12`: a PKCS#12 file's path, or its bytes in base64; unset: a generated development certificate. */
  p12: string | undefined;
  p12Password: string | undefined;
  /**
   * `SIGNET_SIGNING_PKCS11` (a PKCS#11 URI), its PIN (`SIGNET_SIGNING_PKCS11_PIN` or the URI's `pin-value`) and
   * `SIGNET_SIGNING_PKCS11_CHAIN` (a PEM file): a key in a token instead of `p12` (docs/operations.md, "Keys in
   * hardware (PKCS#11)").
   */
  pkcs11?: { location: Pkcs11Location; pin: string | undefined; chainFile: string | undefined };
  /** RFC 3161 timestamp authority: needed for PAdES B-T and above. */
  tsaUrl: string | undefined;
  /** How long the timestamp authority may take to answer; keep it below `PDF_TASK_TIMEOUT_MS` (ms). */
  tsaTimeoutMs: number;
  /** `SIGNET_PADES_LEVEL`: the level seals are made at; default B-LTA with a timestamp authority, else B-B. */
  padesLevel: PadesLevel;
  /** Each OCSP or CRL request's time limit when sealing at B-LT or B-LTA (ms). */
  revocationTimeoutMs: number;
  /** Whether `signet serve` runs the sealing worker itself (`SEAL_WORKER=false`: only `signet worker` does). */
  worker: boolean;
  /** How often a worker looks for due jobs when nothing woke it (ms). */
  pollMs: number;
  /** How long a taken job is its worker's before another may take it over (ms). */
  leaseMs: number;
  /** Attempts before a job that keeps failing for a passing reason is marked `failed`. */
  maxAttempts: number;
  /** Delay before the second attempt; it doubles with each further one (ms). */
  retryBaseMs: number;
  /** A seal's time limit from its document's size, its ceiling, and its memory limit (`seal-limits.ts`). */
  limits: SealLimits;
}

/**
 * Reads the configuration from environment variables; a bad value throws with the variable's name.
 * @example const config = loadConfig(process.env)
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  if (e.WEBHOOK_LEASE_MS <= e.WEBHOOK_TIMEOUT_MS) {
    throw new Error('Invalid configuration: WEBHOOK_LEASE_MS: must exceed WEBHOOK_TIMEOUT_MS');
  }
  if (e.SEAL_TIMEOUT_MAX_MS < e.PDF_TASK_TIMEOUT_MS) {
    throw new Error('Invalid configuration: SEAL_TIMEOUT_MAX_MS: must not be below PDF_TASK_TIMEOUT_MS');
  }
  if (e.SIGNET_PADES_LEVEL !== undefined && e.SIGNET_PADES_LEVEL !== 'B-B' && e.SIGNET_TSA_URL === undefined) {
    throw new Error(`Invalid configuration: SIGNET_PADES_LEVEL: ${e.SIGNET_PADES_LEVEL} needs a timestamp authority (SIGNET_TSA_URL)`);
  }
  checkPkcs11(e);
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new Error('Invalid configuration: HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    secret: e.SIGNET_SECRET,
    metricsToken: e.SIGNET_METRICS_TOKEN,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    documentTokenTtlSeconds: e.DOCUMENT_TOKEN_TTL_SECONDS,
    maxPdfBytes: e.MAX_PDF_BYTES,
    maxBodyBytes: e.MAX_BODY_BYTES,
    trustProxy: e.TRUST_PROXY,
    authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    connections: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      bodyTimeoutMs: e.BODY_TIMEOUT_MS,
      bodyMinBytesPerSecond: e.BODY_MIN_BYTES_PER_SECOND,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    },
    pdfPool: {
      workers: e.PDF_WORKERS,
      taskTimeoutMs: e.PDF_TASK_TIMEOUT_MS,
      memoryLimitMb: e.PDF_WORKER_MEMORY_MB,
      taskMemoryCeilingMb: Math.max(e.PDF_WORKER_MEMORY_MB, e.SEAL_MEMORY_MB),
      maxQueue: e.PDF_QUEUE_MAX,
      preview: { heapBytes: e.PDFIUM_HEAP_MB * 1024 * 1024, maxImagePixels: e.PDF_MAX_IMAGE_PIXELS },
    },
    sealing: {
      p12: e.SIGNET_SIGNING_P12,
      p12Password: e.SIGNET_SIGNING_P12_PASSWORD,
      ...(e.SIGNET_SIGNING_PKCS11 && {
        pkcs11: {
          location: e.SIGNET_SIGNING_PKCS11.location,
          pin: e.SIGNET_SIGNING_PKCS11_PIN ?? e.SIGNET_SIGNING_PKCS11.pin,
          chainFile: e.SIGNET_SIGNING_PKCS11_CHAIN,
        },
      }),
      tsaUrl: e.SIGNET_TSA_URL,
      tsaTimeoutMs: e.SIGNET_TSA_TIMEOUT_MS,
      padesLevel: e.SIGNET_PADES_LEVEL ?? (e.SIGNET_TSA_URL === undefined ? 'B-B' : 'B-LTA'),
      revocationTimeoutMs: e.SIGNET_REVOCATION_TIMEOUT_MS,
      worker: e.SEAL_WORKER === 'true',
      pollMs: e.SEAL_POLL_MS,
      leaseMs: e.SEAL_LEASE_MS,
      maxAttempts: e.SEAL_MAX_ATTEMPTS,
      retryBaseMs: e.SEAL_RETRY_BASE_MS,
      limits: {
        msPerPage: e.SEAL_TIMEOUT_PER_PAGE_MS,
        msPerMib: e.SEAL_TIMEOUT_PER_MIB_MS,
        maxMs: e.SEAL_TIMEOUT_MAX_MS,
        memoryMb: e.SEAL_MEMORY_MB,
      },
    },
    webhooks: {
      allowPrivate: e.SIGNET_WEBHOOKS_ALLOW_PRIVATE === 'true',
      dispatcher: e.WEBHOOK_DISPATCHER === 'true',
      pollMs: e.WEBHOOK_POLL_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      leaseMs: e.WEBHOOK_LEASE_MS,
      concurrency: e.WEBHOOK_CONCURRENCY,
      maxEndpoints: e.WEBHOOK_MAX_ENDPOINTS,
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE_MS,
    },
    retentionDays: e.RETENTION_DAYS,
    mail: e.SIGNET_SMTP_URL === undefined ? undefined : { smtpUrl: e.SIGNET_SMTP_URL, from: e.SIGNET_MAIL_FROM, timeoutMs: e.SIGNET_MAIL_TIMEOUT_MS },
  };
}

/** The PKCS#11 key replaces the PKCS#12 one, and its PIN is given once; its companions need it. */
function checkPkcs11(e: z.infer<typeof EnvSchema>): void {
  const uri = e.SIGNET_SIGNING_PKCS11;
  if (uri === undefined) {
    const orphan = e.SIGNET_SIGNING_PKCS11_PIN !== undefined ? 'SIGNET_SIGNING_PKCS11_PIN' : e.SIGNET_SIGNING_PKCS11_CHAIN !== undefined ? 'SIGNET_SIGNING_PKCS11_CHAIN' : undefined;
    if (orphan) throw new Error(`Invalid configuration: ${orphan}: set without SIGNET_SIGNING_PKCS11`);
    return;
  }
  if (e.SIGNET_SIGNING_P12 !== undefined) {
    throw new Error('Invalid configuration: SIGNET_SIGNING_P12 and SIGNET_SIGNING_PKCS11 are both set: seals are signed with one key, give one of them');
  }
  if (uri.pin !== undefined && e.SIGNET_SIGNING_PKCS11_PIN !== undefined) {
    throw new Error("Invalid configuration: SIGNET_SIGNING_PKCS11_PIN: the URI's pin-value gives a PIN too: give it once");
  }
}
