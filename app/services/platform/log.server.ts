/**
 * The one way an error reaches the log (issue 31, docs/decisions/036). An error from the database carries what the
 * query was given: drizzle's DrizzleQueryError has `.params` and a message ending in "params: …" (a password hash, a
 * mail with its code), and PostgreSQL's own error has `.detail` ("Key (email)=(…) already exists", a trigger's row).
 * So only this is written, as one JSON line: the error's class, its code (SQLSTATE or our own), its message cut
 * before the parameters, the same for up to three causes, a few stack frames, and the request id when there is one.
 * Never `.params`, `.detail`, `.where`, the raw stack's first line (it repeats the message) or any other property.
 *
 * Where the line goes: the process's JSON log (server.ts hands it to `setLogSink`: server/observability.ts
 * jsonLogger), else one JSON line through console.error (tests, scripts).
 */
export type LogLevel = 'error' | 'warn';

export interface LogSink {
  log(level: LogLevel, msg: string, fields: Record<string, unknown>): void;
}

/** Shared through globalThis: build/server.js and the Remix build (build/server/index.js) each bundle this module. */
const SINK_KEY = Symbol.for('lvyou.log-sink');
type WithSink = typeof globalThis & { [SINK_KEY]?: LogSink };

export function setLogSink(sink: LogSink | undefined): void {
  (globalThis as WithSink)[SINK_KEY] = sink;
}

export interface LogContext {
  /** The request's id (X-Request-Id), so the line can be found from the error page or envelope. */
  requestId?: string;
  /** More to say, as plain values the caller chose (ids, counts; never the request's input). */
  fields?: Record<string, string | number | boolean | undefined>;
}

export function logError(msg: string, error: unknown, context: LogContext = {}): void {
  write('error', msg, error, context);
}

export function logWarning(msg: string, error: unknown, context: LogContext = {}): void {
  write('warn', msg, error, context);
}

/** A line that is not about an error (a refusal, a warning at start): the message and the caller's plain fields. */
export function logEvent(level: LogLevel, msg: string, fields: LogContext['fields'] = {}): void {
  emit(level, msg, { ...fields });
}

function write(level: LogLevel, msg: string, error: unknown, context: LogContext): void {
  emit(level, msg, { ...context.fields, ...(context.requestId ? { request_id: context.requestId } : {}), ...errorFields(error) });
}

function emit(level: LogLevel, msg: string, fields: Record<string, unknown>): void {
  const sink = (globalThis as WithSink)[SINK_KEY];
  if (sink) return sink.log(level, msg, fields);
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  if (level === 'error') console.error(line);
  else console.warn(line);
}

/** What may be logged of an error: class, code, message without parameters, causes, a few frames. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error_class: typeof error, error: 'a non-error was thrown' };
  const causes: string[] = [];
  for (let cause = (error as { cause?: unknown }).cause, depth = 0; cause && depth < 3; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof Error) causes.push(`${className(cause)}${codeTag(cause)}: ${safeMessage(cause.message)}`);
  }
  const code = codeOf(error) ?? codeOf((error as { cause?: unknown }).cause);
  return {
    error_class: className(error),
    ...(code ? { error_code: code } : {}),
    error: safeMessage(error.message),
    ...(causes.length ? { cause: causes } : {}),
    ...(frames(error).length ? { stack: frames(error) } : {}),
  };
}

/** The same as one line of text (app/http/errors.server.ts keeps this form for its callers). */
export function describeError(error: unknown): string {
  const f = errorFields(error);
  const parts = [`${f.error_class}${f.error_code ? ` [${f.error_code}]` : ''}: ${f.error}`, ...((f.cause as string[] | undefined) ?? []).map((c) => `caused by ${c}`)];
  const stack = (f.stack as string[] | undefined) ?? [];
  return `${parts.join('\n  ')}${stack.length ? `\n    ${stack.join('\n    ')}` : ''}`;
}

/** drizzle's DrizzleQueryError keeps the name "Error": its constructor names it. */
function className(error: Error): string {
  const ctor = (error as { constructor?: { name?: string } }).constructor?.name;
  return ctor && ctor !== 'Error' ? ctor : error.name;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.length <= 40 ? code : undefined;
}

const codeTag = (error: Error) => (codeOf(error) ? ` [${codeOf(error)}]` : '');

/** The message up to drizzle's "params:" (everything after it is the query's values), and not endless. */
function safeMessage(message: string): string {
  const cut = message.search(/\n?\s*params:/i);
  return (cut === -1 ? message : message.slice(0, cut)).slice(0, 2000);
}

/** The first frames only: the stack's first line repeats the message, parameters included. */
function frames(error: Error): string[] {
  const stack = error.stack ?? '';
  const first = stack.indexOf('\n    at ');
  if (first === -1) return [];
  return stack
    .slice(first + 1)
    .split('\n')
    .slice(0, 5)
    .map((line) => line.trim());
}
