import { z } from 'zod';

/** The admin queue's one form (/admin/reports): dismiss a report, or hide the reported message. */
export const reportDecisionSchema = z.object({
  intent: z.enum(['dismiss', 'hide'], { error: 'validation.invalid' }),
  reportId: z.coerce.number().int().min(1).max(2_147_483_647),
});
