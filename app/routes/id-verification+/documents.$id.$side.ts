import type { LoaderFunctionArgs } from '@remix-run/node';
import { getSession } from '~/http/session.server';
import { parseIdParam } from '~/lib/ids';
import { notFound, orErrorPage } from '~/http/page.server';
import { getIdDocument } from '~/services/trust/id-verification.server';

/**
 * GET /id-verification/documents/{applicationId}/{front|back}: one private ID document, for the applicant
 * (cookie or bearer) and admins only. Everyone else, like an unknown id, gets a bare 404 (an application's
 * existence is not told). Never cached by anyone: `Cache-Control: private, no-store`.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const headers = { 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' };
  const id = parseIdParam(params.id);
  if (id === undefined) throw notFound(headers);
  const session = await getSession(request);
  const blob = await orErrorPage(() => getIdDocument(session?.user, id, params.side ?? ''), { existencePrivate: true, headers });
  return new Response(new Uint8Array(blob.bytes), {
    headers: { ...headers, 'Content-Type': blob.contentType, 'Content-Disposition': 'inline', 'Content-Length': String(blob.bytes.length) },
  });
}
