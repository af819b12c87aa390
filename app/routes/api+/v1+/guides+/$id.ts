import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { getLocale } from '~/i18n/i18n.server';
import { guideDetailData } from '~/schemas/guide-responses';
import { adminUserData } from '~/schemas/responses';
import { archiveGuide } from '~/services/trust/guide-archive.server';
import { guideIdParam } from '~/services/accounts/guide-profile.server';
import { getGuideDetail } from '~/services/catalogue/guides.server';
import { toAdminUser } from '~/services/accounts/user-admin.server';

export const contract = defineApi({
  path: '/api/v1/guides/{id}',
  tags: ['guides'],
  operations: {
    GET: {
      summary: "A guide's public page: profile, approved photos, open slots of the next 14 days, reviews and their distribution",
      description: 'A traveler, an unknown id or a guide the public may not see (unverified, incomplete, blocked, archived, suspended) is 404 GUIDE_NOT_FOUND.',
      auth: 'public',
      cache: 'shared',
      query: z.object({ reviewPage: z.coerce.number().int().min(1).max(100_000).optional() }),
      data: guideDetailData,
      errors: ['GUIDE_NOT_FOUND'],
    },
    DELETE: {
      summary: 'Archive a guide’s account (admin): hidden everywhere, sessions end; audited',
      auth: { roles: ['admin'] },
      data: adminUserData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'GUIDE_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ params, query, request }) =>
    getGuideDetail(guideIdParam(params.id), { locale: await getLocale(request), reviewPage: query.reviewPage }),
  DELETE: async ({ session, params }) => ({ user: toAdminUser(await archiveGuide(session.user, guideIdParam(params.id))) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
