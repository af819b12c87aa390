import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { bannerInputOf, readBannerUpload } from '~/http/banner-form.server';
import { defineApi } from '~/http/contract';
import { bannerInputSchema, bannerSchema, type Banner, type BannerInput } from '~/schemas/banners';
import { deleteBanner, getBanner, updateBanner } from '~/services/admin/banners.server';
import { idParamOr } from '~/services/platform/errors.server';

export const contract = defineApi({
  path: '/api/v1/admin/banners/{id}',
  tags: ['banners'],
  operations: {
    PUT: {
      summary: 'Change a home banner (admin): fields left out keep their value, null clears one; audited with before and after',
      description: 'JSON, or multipart with an optional new `image`. The same fields and rules as POST /api/v1/admin/banners.',
      auth: { roles: ['admin'] },
      body: bannerInputSchema,
      upload: { field: 'image', description: 'JPEG, PNG or WebP image, at most 10 MiB (optional)' },
      data: z.object({ banner: bannerSchema }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'FILE_TOO_LARGE', 'INVALID_FILE_TYPE'],
    },
    DELETE: {
      summary: 'Delete a home banner (admin); audited with what it was',
      auth: { roles: ['admin'] },
      data: z.object({ id: z.number().int() }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

const bannerId = (raw: string | undefined) => idParamOr('NOT_FOUND', raw);

const handlers = apiHandlers(contract, {
  PUT: {
    authorize: ({ session, params }) => getBanner(session.user, bannerId(params.id)),
    current: (banner: Banner) => bannerInputOf(banner),
    handle: async ({ request, session, body, target }) => {
      const input: BannerInput = body ?? (await readBannerUpload(request, session.user, bannerInputOf(target)));
      return { banner: await updateBanner(session.user, target.id, input) };
    },
  },
  DELETE: async ({ session, params }) => {
    const id = bannerId(params.id);
    await deleteBanner(session.user, id);
    return { id };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
