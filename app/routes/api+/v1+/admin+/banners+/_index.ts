import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { readBannerUpload } from '~/http/banner-form.server';
import { defineApi } from '~/http/contract';
import { bannerInputSchema, bannerSchema } from '~/schemas/banners';
import { createBanner, listBanners } from '~/services/admin/banners.server';

export const contract = defineApi({
  path: '/api/v1/admin/banners',
  tags: ['banners'],
  operations: {
    GET: {
      summary: 'Every home banner in the home page’s order, with whether it is shown now (admin)',
      auth: { roles: ['admin'] },
      data: z.object({ banners: z.array(bannerSchema) }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
    POST: {
      summary: 'Add a home banner (admin); it goes last in the order; audited',
      description:
        'JSON, or multipart with an optional `image` (JPEG, PNG or WebP by its bytes, at most 10 MiB and 25 megapixels; re-encoded to a 1200×400 webp without metadata). `title` (zh-TW) is required; en/ja fall back to it. `linkUrl`: a path on this site or an https URL. `startsAt`/`endsAt`: ISO times with a zone (or `YYYY-MM-DDTHH:mm`, Taiwan time); `endsAt` after `startsAt`. `isActive` defaults to false.',
      auth: { roles: ['admin'] },
      body: bannerInputSchema,
      upload: { field: 'image', description: 'JPEG, PNG or WebP image, at most 10 MiB (optional)' },
      status: 201,
      data: z.object({ banner: bannerSchema }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'FILE_TOO_LARGE', 'INVALID_FILE_TYPE'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session }) => ({ banners: await listBanners(session.user) }),
  POST: async ({ request, session, body }) => {
    const input = body ?? (await readBannerUpload(request, session.user));
    return { banner: await createBanner(session.user, input) };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
