import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { readUploadForm, removeAvatar, setAvatar, uploadedBytes } from '~/services/accounts/avatars.server';
import { assertSelfOrAdminId } from '~/services/platform/access.server';
import { userIdParam } from '~/services/accounts/users.server';

export const contract = defineApi({
  path: '/api/v1/users/{id}/avatar',
  tags: ['users'],
  operations: {
    POST: {
      summary: 'Upload or replace the avatar (the account itself or an admin)',
      description: 'Checked by its bytes and re-encoded to a 100×100 webp. `avatar` repeats `avatarUrl` (SPEC §7 reads either).',
      auth: 'user',
      upload: { field: 'avatar', description: 'JPEG, PNG or WebP image, at most 10 MiB' },
      data: z.object({ avatarUrl: z.string(), avatar: z.string() }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'USER_NOT_FOUND', 'FILE_TOO_LARGE', 'INVALID_FILE_TYPE'],
    },
    DELETE: {
      summary: 'Remove the avatar; the default picture is shown again',
      auth: 'user',
      data: z.object({ avatarUrl: z.null() }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'USER_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ request, session, params }) => {
    const userId = userIdParam(params.id);
    // Authorise before reading a possibly large body.
    assertSelfOrAdminId(session.user, userId);
    const form = await readUploadForm(request);
    const avatarUrl = await setAvatar(session.user, userId, await uploadedBytes(form, 'avatar'));
    return { avatarUrl, avatar: avatarUrl };
  },
  DELETE: async ({ session, params }) => {
    await removeAvatar(session.user, userIdParam(params.id));
    return { avatarUrl: null };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
