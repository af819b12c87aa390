import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { guideProfileData } from '~/schemas/guide-responses';
import { guideProfileUpdateSchema } from '~/schemas/guide-profile';
import { assertMayEditGuideProfile, guideIdParam, updateGuideProfile } from '~/services/accounts/guide-profile.server';
import { toPublicUser } from '~/services/accounts/users.server';

export const contract = defineApi({
  path: '/api/v1/guides/{id}/profile',
  tags: ['guides'],
  operations: {
    PUT: {
      summary: "Save a guide's public profile (the guide or an admin)",
      description:
        'city, language, price and description (中文) are required; price is what one booked slot (morning, afternoon or evening) costs the whole group, in NT$ (> 0). ' +
        'maxGroupSize (1–50) is the most people one booking may bring; an omitted one keeps its value (docs/decisions/016-group-size.md). ' +
        'headline, headlineEn, headlineJa, descriptionEn and descriptionJa are optional and an omitted one is cleared. The same rules and service as the /me profile form.',
      auth: 'user',
      body: guideProfileUpdateSchema,
      data: guideProfileData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'GUIDE_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  PUT: {
    // Another guide gets 403 whatever the body: access is decided before the body is read.
    authorize: ({ session, params }) => assertMayEditGuideProfile(session.user, guideIdParam(params.id)),
    handle: async ({ session, params, body }) => ({ user: toPublicUser(await updateGuideProfile(session.user, guideIdParam(params.id), body)) }),
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
