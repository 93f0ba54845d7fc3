import pino from 'pino';

export type Logger = pino.Logger;

/**
 * The JSON logger: one object a line, pino's usual shape (`level` 30 is info, `time` in epoch milliseconds). It
 * runs on every request, so it does no redaction pass: nothing logs a key or a token in the first place (tests check
 * the request log for both).
 * @example const logger = createLogger('info')
 */
export function createLogger(level: string, destination: pino.DestinationStream = logDestination(1)): Logger {
  return pino({ level, base: undefined }, destination);
}

/**
 * Where log lines go: a file descriptor or path, written asynchronously in batches of about 4 KiB (flushed on
 * shutdown by the server).
 * @example createLogger('info', logDestination('/var/log/signet.log'))
 */
export function logDestination(dest: string | number = 1): pino.DestinationStream {
  return pino.destination({ dest, sync: false, minLength: 4096 });
}
