import type { LoaderFunctionArgs } from '@remix-run/node';
import { getSession } from '~/http/auth.server';
import { parseIdParam } from '~/lib/ids';
import { AppError } from '~/services/errors.server';
import { getIdDocument } from '~/services/id-verification.server';

/**
 * GET /id-verification/documents/{applicationId}/{front|back}: one private ID document, for the applicant
 * (cookie or bearer) and admins only. Everyone else, like an unknown id, gets a bare 404 (an application's
 * existence is not told). Never cached by anyone: `Cache-Control: private, no-store`.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const headers = { 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' };
  try {
    const session = await getSession(request);
    const blob = await getIdDocument(session?.user, parseIdParam(params.id) ?? 0, params.side ?? '');
    return new Response(new Uint8Array(blob.bytes), {
      headers: { ...headers, 'Content-Type': blob.contentType, 'Content-Disposition': 'inline', 'Content-Length': String(blob.bytes.length) },
    });
  } catch (error) {
    if (error instanceof AppError) return new Response('Not Found', { status: 404, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });
    throw error;
  }
}
