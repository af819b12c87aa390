import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { favoriteData, idField } from '~/schemas/discover';
import { AppError, parseValue } from '~/services/platform/errors.server';
import { removeFavorite } from '~/services/catalogue/favorites.server';

export const contract = defineApi({
  path: '/api/v1/favorites/{id}',
  tags: ['favorites'],
  operations: {
    DELETE: {
      summary: 'Remove a favorite (its owner, or an admin)',
      description: '404 NOT_FOUND when there is no such favorite; someone else’s favorite is 403 FORBIDDEN.',
      auth: 'user',
      data: favoriteData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

function favoriteIdParam(value: string | undefined): number {
  try {
    return parseValue(idField, value);
  } catch {
    throw new AppError('NOT_FOUND', { messageKey: 'discover.favorites.notFound' });
  }
}

const handlers = apiHandlers(contract, {
  DELETE: async ({ session, params }) => ({ favorite: await removeFavorite(session.user, favoriteIdParam(params.id)) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
