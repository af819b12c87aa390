import type { ActionFunctionArgs } from '@remix-run/node';
import { apiRoute, ok, parseBody } from '~/http/api.server';
import { resendVerificationSchema } from '~/schemas/auth';
import { resendVerification } from '~/services/auth.server';
import { RESEND_COOLDOWN_SECONDS } from '~/services/email-codes.server';

/** POST /api/v1/auth/resend-verification {email}: a new code, at most one per 60 s (429 RESEND_COOLDOWN). */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  const { email } = await parseBody(request, resendVerificationSchema);
  await resendVerification(email);
  return ok({ sent: true, cooldownSeconds: RESEND_COOLDOWN_SECONDS });
});
