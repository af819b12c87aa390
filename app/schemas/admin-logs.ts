import { z } from 'zod';

/**
 * /admin/logs (issue 22): the audit log's filters from the URL of a plain GET form — the actor (`actor`: a name
 * or e-mail address, words CJK-aware as the order filters, or a user number; issue 35), `actorId` (a user number,
 * kept for links made before), the action (exact, or a prefix ending in "." such as `user.`), the object type and number, and Taiwan days.
 * Empty values count as absent. 20 entries a page, newest first.
 */
export const AUDIT_PAGE_SIZE = 20;

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());
const whole = (max: number) =>
  z.coerce.number({ error: 'validation.invalid' }).int({ error: 'validation.invalid' }).min(1, { error: 'validation.invalid' }).max(max, { error: 'validation.invalid' });
const day = z.iso.date({ error: 'validation.invalid' });

export const auditQuerySchema = z.object({
  page: optional(whole(100_000)).transform((v) => v ?? 1),
  actor: optional(z.string().trim().max(100, { error: 'validation.invalid' })),
  actorId: optional(whole(2_147_483_647)),
  action: optional(z.string().trim().max(60, { error: 'validation.invalid' })),
  targetType: optional(z.string().trim().max(40, { error: 'validation.invalid' })),
  targetId: optional(z.string().trim().max(40, { error: 'validation.invalid' })),
  from: optional(day),
  to: optional(day),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;
