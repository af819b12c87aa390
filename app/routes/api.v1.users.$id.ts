import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { apiRoute, ok, parseBody } from '~/http/api.server';
import { requireApiRole, requireApiSession } from '~/http/auth.server';
import { profileSchemaFor } from '~/schemas/profile';
import { archiveUser } from '~/services/user-admin.server';
import { assertCanAccessUser, getProfile, toPublicUser, updateProfile, userIdParam } from '~/services/users.server';

/** GET /api/v1/users/:id → data.user (the user themself or an admin; anyone else 403, anonymous 401). */
export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  const { user: viewer } = await requireApiSession(request);
  const user = await getProfile(viewer, userIdParam(params.id));
  return ok({ user: toPublicUser(user) });
});

/**
 * PUT /api/v1/users/:id: the profile form's fields (name, email, bio; guides also city, language, price,
 * description) → data.user. DELETE: admins archive the account → data.user.
 */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  switch (request.method.toUpperCase()) {
    case 'PUT': {
      const { user: viewer } = await requireApiSession(request);
      const id = userIdParam(params.id);
      // Access first (403/404 before 400), then the rules for that kind of account.
      const target = await assertCanAccessUser(viewer, id, { write: true });
      const input = await parseBody(request, profileSchemaFor(target.type));
      const user = await updateProfile(viewer, id, input);
      return ok({ user: toPublicUser(user) });
    }
    case 'DELETE': {
      const { user: actor } = await requireApiRole(request, 'admin');
      const user = await archiveUser(actor, userIdParam(params.id));
      return ok({ user: toPublicUser(user) });
    }
    default:
      return new Response(null, { status: 405, headers: { Allow: 'GET, PUT, DELETE' } });
  }
});
