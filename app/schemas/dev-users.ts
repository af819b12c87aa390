import { z } from 'zod';
import { emailField, nameField, newPasswordField } from './field-rules';

/**
 * The debug calls of SPEC §7 Dev (GET/POST /api/dev/users, PUT/DELETE /api/dev/users/{id}). No call creates,
 * changes or makes an admin: `type` is traveler or guide only (docs/decisions/030-debug-routes.md).
 */
const devAccountType = z.enum(['traveler', 'guide'], { error: 'validation.invalid' });

/** POST: a ready-to-use test account (verified address, agreed to the current terms unless told otherwise). */
export const devCreateUserSchema = z.object({
  type: devAccountType.default('traveler'),
  name: nameField,
  email: emailField,
  password: newPasswordField,
  isEmailVerified: z.boolean({ error: 'validation.invalid' }).default(true),
  agreeToTerms: z.boolean({ error: 'validation.invalid' }).default(true),
});
export type DevCreateUserInput = z.output<typeof devCreateUserSchema>;

/** PUT: only what a tester flips; anything absent stays. */
export const devUpdateUserSchema = z.object({
    name: nameField.optional(),
    type: devAccountType.optional(),
    isEmailVerified: z.boolean({ error: 'validation.invalid' }).optional(),
    isIdVerified: z.boolean({ error: 'validation.invalid' }).optional(),
  });
export type DevUpdateUserInput = z.output<typeof devUpdateUserSchema>;

export const devUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  type: z.enum(['traveler', 'guide', 'admin']),
  isEmailVerified: z.boolean(),
  isIdVerified: z.boolean(),
  blocked: z.boolean(),
  archived: z.boolean(),
});
