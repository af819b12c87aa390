import { apiHandlers, ok } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { getLocale } from '~/i18n/i18n.server';
import { favoriteCreateSchema, favoriteData, favoriteListData, favoritesQuerySchema } from '~/schemas/discover';
import { addFavorite, listFavorites } from '~/services/catalogue/favorites.server';

export const contract = defineApi({
  path: '/api/v1/favorites',
  tags: ['favorites'],
  operations: {
    GET: {
      summary: "A person's favorite guides, newest first (their own; an admin may name any userId)",
      description: 'Without userId, the caller’s own favorites. `guide` is null for a guide no longer listed.',
      auth: 'user',
      query: favoritesQuerySchema,
      data: favoriteListData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'USER_NOT_FOUND'],
    },
    POST: {
      summary: 'Add a guide to the caller’s favorites',
      description:
        'A second add of the same guide keeps the one favorite and answers it with 200; a new favorite answers 201. Unknown or unlisted guides: 404 GUIDE_NOT_FOUND. A guide adding their own profile: 403 FORBIDDEN.',
      auth: 'user',
      body: favoriteCreateSchema,
      status: 201,
      alsoStatus: 200,
      data: favoriteData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'GUIDE_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, query, request }) =>
    listFavorites(session.user, query.userId ?? session.user.id, { page: query.page, limit: query.limit, locale: await getLocale(request) }),
  POST: async ({ session, body }) => {
    const { favorite, created } = await addFavorite(session.user, body.targetId);
    return ok({ favorite }, { status: created ? 201 : 200 });
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
