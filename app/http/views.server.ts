import type { GUIDE_VIEW_KINDS } from '~db/schema';
import { recordGuideView } from '~/services/admin/admin-stats.server';
import { logError } from '~/services/platform/log.server';

/**
 * Counting guide views for the statistics' funnel (issue 22, docs/decisions/025), from the guide page's and the
 * booking page's loaders. A view counts unless it comes from a robot (its user agent says so), is a browser's
 * prefetch, or is an admin's or the guide's own. It never fails the page: an error is logged and swallowed.
 */
const ROBOT = /bot\b|bot\/|crawl|spider|slurp|mediapartners|facebookexternalhit|embedly|preview|lighthouse|curl\/|wget\/|python-requests|go-http-client|headlesschrome/i;

export function isCountedView(request: Request, viewer: { id: number; type: string } | null | undefined, guideId: number): boolean {
  if (request.method !== 'GET') return false;
  if (viewer && (viewer.type === 'admin' || viewer.id === guideId)) return false;
  const purpose = `${request.headers.get('purpose') ?? ''} ${request.headers.get('sec-purpose') ?? ''}`;
  if (/prefetch/i.test(purpose)) return false;
  const agent = request.headers.get('user-agent') ?? '';
  return agent !== '' && !ROBOT.test(agent);
}

export async function countGuideView(
  request: Request,
  viewer: { id: number; type: string } | null | undefined,
  guideId: number,
  kind: (typeof GUIDE_VIEW_KINDS)[number],
): Promise<void> {
  if (!isCountedView(request, viewer, guideId)) return;
  try {
    await recordGuideView(guideId, kind);
  } catch (error) {
    logError(`guide views: could not count a ${kind} view`, error, { fields: { guide_id: guideId } });
  }
}
