import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { getSession } from '~/http/session.server';
import { defineApi } from '~/http/contract';
import { parseIdParam } from '~/lib/ids';
import { photoListQuerySchema, photoSchema } from '~/schemas/trust';
import { AppError } from '~/services/platform/errors.server';
import { readUploadForm, uploadedBytes } from '~/services/platform/image-pipeline.server';
import { assertMayUploadPhoto, listPhotos, uploadPhoto } from '~/services/trust/photos.server';

export const contract = defineApi({
  path: '/api/v1/photos',
  tags: ['photos'],
  operations: {
    GET: {
      summary: 'A guide’s photos: approved only (all=0, anyone), or every status (all=1, the guide itself or an admin)',
      auth: 'public',
      query: photoListQuerySchema,
      data: z.object({ photos: z.array(photoSchema) }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'GUIDE_NOT_FOUND'],
    },
    POST: {
      summary: 'Upload a photo (an ID-verified guide for themselves, or an admin for any guide); it awaits review',
      description:
        'Multipart `photo` (JPEG, PNG or WebP by its bytes, at most 10 MiB and 25 megapixels) and optional `guideId` (the caller unless an admin). Re-encoded to webp ≤ 1200 px and ≤ 0.5 MB without metadata. At most 4 photos per guide (400).',
      auth: 'user',
      upload: { field: 'photo', description: 'JPEG, PNG or WebP image, at most 10 MiB' },
      status: 201,
      data: z.object({ photo: photoSchema }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'VERIFICATION_REQUIRED', 'GUIDE_NOT_FOUND', 'FILE_TOO_LARGE', 'INVALID_FILE_TYPE'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ request, query }) => {
    const session = query.all ? await getSession(request) : undefined;
    return { photos: await listPhotos(session?.user, query.guideId, query.all) };
  },
  POST: async ({ request, session }) => {
    const actor = session.user;
    // A guide uploads for themselves: refused (unverified, cap reached) before the body is read.
    if (actor.type !== 'admin') await assertMayUploadPhoto(actor, actor.id);
    const form = await readUploadForm(request);
    const raw = form.get('guideId');
    let guideId = actor.id;
    if (typeof raw === 'string' && raw.trim() !== '') {
      const parsed = parseIdParam(raw.trim());
      if (parsed === undefined) throw new AppError('VALIDATION_ERROR', { fieldErrors: { guideId: ['validation.invalid'] } });
      guideId = parsed;
    } else if (actor.type === 'admin') {
      throw new AppError('VALIDATION_ERROR', { fieldErrors: { guideId: ['validation.invalid'] } });
    }
    const bytes = await uploadedBytes(form, 'photo', 'trust.photos.errors.noFile');
    return { photo: await uploadPhoto(actor, guideId, bytes) };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
