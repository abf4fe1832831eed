export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';
const order: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
}

// Field names whose values never reach a log line, whatever the caller passes.
const SECRET_FIELD = /pass(word)?|secret|token|key|authorization|cookie|hash/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_FIELD.test(k) ? '[redacted]' : v;
  return out;
}

/** A structured logger writing one JSON object per line. */
export function createLogger(
  level: LogLevel = 'info',
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const log =
    (lvl: Exclude<LogLevel, 'silent'>) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (order[lvl] > order[level]) return;
      write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...redact(fields) }));
    };
  return { error: log('error'), warn: log('warn'), info: log('info'), debug: log('debug') };
}
