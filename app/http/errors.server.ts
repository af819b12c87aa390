/**
 * Logging a failure without what the client sent. Drizzle's query errors put every parameter into their
 * message ("params: name,email,$argon2id$…"), and a password hash, a code or a token must never reach a
 * log; so only the error's name, its message up to the parameters, and the database's own error code and
 * message are written.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `non-error thrown: ${typeof error}`;
  const parts = [`${error.name}: ${stripParams(error.message)}`];
  for (let cause = (error as { cause?: unknown }).cause, depth = 0; cause && depth < 3; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof Error) {
      const code = (cause as { code?: unknown }).code;
      parts.push(`caused by ${cause.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${stripParams(cause.message)}`);
    }
  }
  // The stack starts with the message (parameters included), so only its frames are kept.
  const stack = error.stack ?? '';
  const firstFrame = stack.indexOf('\n    at ');
  const frames = firstFrame === -1 ? '' : stack.slice(firstFrame + 1).split('\n').slice(0, 5).join('\n');
  return `${parts.join('\n  ')}${frames ? `\n${frames}` : ''}`;
}

function stripParams(message: string): string {
  const cut = message.search(/\n?\s*params:/i);
  return (cut === -1 ? message : message.slice(0, cut)).slice(0, 2000);
}

export function logServerError(error: unknown, request?: Request): void {
  const where = request ? `${request.method} ${new URL(request.url).pathname}` : 'server';
  console.error(`${where} failed: ${describeError(error)}`);
}
