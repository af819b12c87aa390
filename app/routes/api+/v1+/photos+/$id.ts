import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { parseIdParam } from '~/lib/ids';
import { photoReviewSchema, photoSchema } from '~/schemas/trust';
import { AppError } from '~/services/platform/errors.server';
import { deletePhoto, reviewPhoto } from '~/services/trust/photos.server';

export const contract = defineApi({
  path: '/api/v1/photos/{id}',
  tags: ['photos'],
  operations: {
    DELETE: {
      summary: 'Delete a photo: the guide’s own photos that are not approved, or any photo (admin)',
      auth: 'user',
      data: z.object({ id: z.number().int() }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
    PATCH: {
      summary: 'Review a photo (admin): approved or rejected with an optional reason; audited, the guide is notified (mailed on rejection)',
      auth: { roles: ['admin'] },
      body: photoReviewSchema,
      data: z.object({ photo: photoSchema }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

function photoId(raw: string | undefined): number {
  const id = parseIdParam(raw);
  if (id === undefined) throw new AppError('NOT_FOUND');
  return id;
}

const handlers = apiHandlers(contract, {
  DELETE: async ({ session, params }) => deletePhoto(session.user, photoId(params.id)),
  PATCH: async ({ session, params, body }) => ({ photo: await reviewPhoto(session.user, photoId(params.id), body) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
