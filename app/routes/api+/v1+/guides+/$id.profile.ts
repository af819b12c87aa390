import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { guideProfileData } from '~/schemas/guide-responses';
import { guideProfileUpdateSchema } from '~/schemas/guide-profile';
import { guideIdParam, updateGuideProfile } from '~/services/guide-profile.server';
import { toPublicUser } from '~/services/users.server';

export const contract = defineApi({
  path: '/api/v1/guides/{id}/profile',
  tags: ['guides'],
  operations: {
    PUT: {
      summary: "Save a guide's public profile (the guide or an admin)",
      description:
        'city, language, price (> 0) and description (中文) are required; headline, headlineEn, headlineJa, descriptionEn and descriptionJa are optional and an omitted one is cleared. The same rules and service as the /me profile form.',
      auth: 'user',
      body: guideProfileUpdateSchema,
      data: guideProfileData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'GUIDE_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  PUT: async ({ session, params, body }) => ({
    user: toPublicUser(await updateGuideProfile(session.user, guideIdParam(params.id), body)),
  }),
});
export const loader = handlers.loader;
export const action = handlers.action;
