/**
 * One form POST to a payment provider (or, from the simulator, to a merchant's callback URL): every call has a
 * deadline and a cap on the answer's size, so a provider that hangs or floods delays a side effect and never holds
 * a worker or its memory (ARCHITECTURE §8a; docs/decisions/039).
 */
export interface FormPostOptions {
  /** The whole call, connection to last byte. */
  timeoutMs?: number;
  /** Larger answers are cut off and refused. */
  maxBytes?: number;
}

export const FORM_POST_DEFAULTS = { timeoutMs: 10_000, maxBytes: 64 * 1024 } as const;

/**
 * The provider did not answer usably (down, slow, refused at the HTTP level, too large): try again later.
 * `mayHaveArrived` is false only when the request certainly never reached the provider (no connection was made):
 * an action that moves money a second time when repeated (a refund) may be sent again only then.
 */
export class ProviderUnavailableError extends Error {
  constructor(
    readonly url: string,
    reason: string,
    readonly mayHaveArrived: boolean = true,
  ) {
    // The URL's path only: a query string may carry a trade's details.
    super(`payment provider unavailable (${new URL(url).pathname}): ${reason}`);
    this.name = 'ProviderUnavailableError';
  }
}

/** Connection errors that mean no byte of the request reached the provider. */
const NEVER_CONNECTED: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export async function postForm(url: string, fields: Record<string, string>, options: FormPostOptions = {}): Promise<{ status: number; body: string }> {
  const { timeoutMs, maxBytes } = { ...FORM_POST_DEFAULTS, ...options };
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain, text/html, */*' },
      body: new URLSearchParams(fields).toString(),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') throw new ProviderUnavailableError(url, `no answer within ${timeoutMs} ms`);
    const code = (error as { cause?: { code?: unknown } })?.cause?.code;
    const neverConnected = typeof code === 'string' && NEVER_CONNECTED.has(code);
    throw new ProviderUnavailableError(url, neverConnected ? `no connection (${code})` : 'connection failed', !neverConnected);
  }
  const body = await readCapped(response, maxBytes, url);
  return { status: response.status, body };
}

async function readCapped(response: Response, maxBytes: number, url: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ProviderUnavailableError(url, `answer of ${declared} bytes is over ${maxBytes}`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new ProviderUnavailableError(url, `answer over ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ProviderUnavailableError) throw error;
    throw new ProviderUnavailableError(url, error instanceof Error && error.name === 'TimeoutError' ? 'answer not finished in time' : 'answer cut off');
  }
  return Buffer.concat(chunks).toString('utf8');
}
