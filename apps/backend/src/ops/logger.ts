import pino, { type DestinationStream, type Logger } from 'pino';

/*
 * The backend's log: one JSON object per line on standard output (pino), so an operator's
 * collector can parse it; `BATON_LOG_FORMAT=pretty` (what `pnpm dev` sets) prints it for people.
 * What goes in is decided at each call site, and never includes a secret, a key, a cookie, a
 * prompt or a message text: ids, statuses, durations, counts and error texts without query
 * values (error-text.ts). The redaction below is a second line for a field added by mistake.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Field names whose values never reach a log line, at the top level or one object down. */
const SECRET_FIELDS = ['authorization', 'cookie', 'password', 'apiKey', 'api_key', 'key', 'token', 'secret', 'headers', 'text', 'prompt'];
const REDACT = SECRET_FIELDS.flatMap((name) => [name, `*.${name}`]);

export function parseLogLevel(value: string | undefined): LogLevel {
  const level = (value ?? '').trim().toLowerCase() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new Error(`BATON_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
  }
  return level as LogLevel;
}

function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'baton-backend' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT, censor: '[redacted]' },
    },
    destination,
  );
}

// Until configureLogging runs (and in tests, where it never does), the environment's level in JSON.
let root: Logger = createLogger(LOG_LEVELS.find((l) => l === process.env.BATON_LOG_LEVEL?.trim().toLowerCase()) ?? 'info');

/** Reads BATON_LOG_LEVEL and BATON_LOG_FORMAT (`json`, the default, or `pretty`); called once at start-up. */
export async function configureLogging(env: NodeJS.ProcessEnv): Promise<void> {
  const level = parseLogLevel(env.BATON_LOG_LEVEL);
  const format = (env.BATON_LOG_FORMAT ?? 'json').trim().toLowerCase();
  if (format !== 'json' && format !== 'pretty') throw new Error(`BATON_LOG_FORMAT must be json or pretty, got "${env.BATON_LOG_FORMAT}"`);
  if (format === 'pretty') {
    // A development dependency: production images log JSON and need not carry it.
    const { default: pretty } = await import('pino-pretty');
    root = createLogger(level, pretty({ colorize: process.stdout.isTTY, ignore: 'pid,hostname,service', translateTime: 'SYS:HH:MM:ss.l' }));
    return;
  }
  root = createLogger(level);
}

/** Tests: every line from now on goes to `destination` (at `level`); the returned function puts the previous logger back. */
export function logTo(destination: DestinationStream, level: LogLevel = 'debug'): () => void {
  const previous = root;
  root = createLogger(level, destination);
  return () => {
    root = previous;
  };
}

type Fields = Record<string, unknown>;

/** The log, for every module: `log.info({ runId }, 'run admitted')`. Always the configured logger. */
export const log = {
  error: (fields: Fields, message: string) => root.error(fields, message),
  warn: (fields: Fields, message: string) => root.warn(fields, message),
  info: (fields: Fields, message: string) => root.info(fields, message),
  debug: (fields: Fields, message: string) => root.debug(fields, message),
};
