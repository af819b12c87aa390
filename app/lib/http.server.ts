/**
 * Mutating form posts must come from our own pages (ARCHITECTURE §5). Browsers send Origin on POST;
 * a mismatch is a cross-site request and is refused.
 */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get('origin');
  if (!origin || origin === 'null') return requireFetchMetadata(request);
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new Response('Forbidden', { status: 403 });
  }
  if (originHost !== host) throw new Response('Forbidden', { status: 403 });
}

function requireFetchMetadata(request: Request): void {
  if (request.headers.get('sec-fetch-site') === 'cross-site') throw new Response('Forbidden', { status: 403 });
}
