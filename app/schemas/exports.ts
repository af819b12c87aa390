import { z } from 'zod';
import { auditQuerySchema } from './admin-logs';
import { adminOrderFilterSchema, rangesInOrder } from './admin-orders';
import { optional } from './field-rules';
import { adminReviewQuerySchema } from './reviews';
import { userListQuerySchema } from './user-admin';

/**
 * The CSV exports' queries (issue 22): each list's own filter fields, taken from its schema (one definition), without
 * its paging and sorting (an export is every matching row, newest id first).
 */
export const userExportQuerySchema = userListQuerySchema
  .pick({ type: true, status: true, search: true })
  .extend({ archived: optional(z.literal('only', { error: 'validation.invalid' })) });
export const orderExportQuerySchema = rangesInOrder(adminOrderFilterSchema);
export const reviewExportQuerySchema = adminReviewQuerySchema.pick({ keyword: true });
export const auditExportQuerySchema = auditQuerySchema.omit({ page: true });

/** What the OpenAPI document says the file is. */
export const csvFile = z.string().describe('UTF-8 CSV with a byte order mark, CRLF line ends, a header row in the caller’s language');
