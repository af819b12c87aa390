import { z } from 'zod';

/** SPEC §3 Pagination, as every paged API answer carries it. Its own module so form schemas can use it without the response shapes. */
export const paginationSchema = z.object({
  page: z.int().min(1),
  limit: z.int().min(1),
  total: z.int().min(0),
  totalPages: z.int().min(0),
  hasNext: z.boolean(),
  hasPrev: z.boolean(),
});
