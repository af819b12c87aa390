import type { ActionFunctionArgs } from '@remix-run/node';
import { apiRoute, ok } from '~/http/api.server';
import { requireApiSession } from '~/http/auth.server';
import { readUploadForm, removeAvatar, setAvatar, uploadedBytes } from '~/services/avatars.server';
import { AppError } from '~/services/errors.server';
import { userIdParam } from '~/services/users.server';

/**
 * POST /api/v1/users/:id/avatar (bearer, multipart field `avatar`) → data.avatarUrl (and data.avatar, the
 * same URL, as SPEC §7 reads either). DELETE → data.avatarUrl null. Yourself, or anyone for an admin.
 * The picture is checked by its bytes and re-encoded to 100×100 webp (avatars.server.ts).
 */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const session = await requireApiSession(request);
  const userId = userIdParam(params.id);
  if (request.method === 'DELETE') {
    await removeAvatar(session.user, userId);
    return ok({ avatarUrl: null });
  }
  if (request.method !== 'POST') throw new AppError('NOT_FOUND');
  // Authorise before reading a possibly large body.
  if (session.user.id !== userId && session.user.type !== 'admin') throw new AppError('FORBIDDEN');
  const form = await readUploadForm(request);
  const avatarUrl = await setAvatar(session.user, userId, await uploadedBytes(form, 'avatar'));
  return ok({ avatarUrl, avatar: avatarUrl });
});

