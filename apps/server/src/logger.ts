import pino from 'pino';

export type Logger = pino.Logger;

/**
 * The JSON logger: one object a line on stdout, `time` in epoch milliseconds. It runs on every request, so it does
 * no redaction pass: nothing logs a key or a token in the first place (tests check the request log for both).
 * @example const logger = createLogger('info')
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }),
  );
}
