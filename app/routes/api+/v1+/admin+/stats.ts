import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { adminStatsData, statsQuerySchema } from '~/schemas/admin-stats';
import { adminStats } from '~/services/admin/admin-stats.server';

export const contract = defineApi({
  path: '/api/v1/admin/stats',
  tags: ['admin'],
  operations: {
    GET: {
      summary: 'The marketplace’s statistics for a period (admin): the numbers of /admin/stats',
      description:
        '`from` and `to` are Taiwan days (YYYY-MM-DD, both included; at most 731 days); without them `range` picks 7d, 30d (the default), 90d or year (1 January to today). ' +
        'Days, weeks (from Monday) and months are Asia/Taipei. Bookings are orders made in the period and not deleted; the gross value leaves out cancelled and refunded ones. ' +
        'Guide page and booking form views are counted by the product (robots, prefetches, admins and the guide’s own views excluded; docs/decisions/025).',
      auth: { roles: ['admin'] },
      query: statsQuerySchema,
      data: adminStatsData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, query }) => adminStats(session.user, query),
});
export const loader = handlers.loader;
export const action = handlers.action;
