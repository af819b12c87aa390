import { limitLog } from '~/http/request-context.server';
import { data, redirect } from '@remix-run/node';
import { attempt, parseForm, replyWithError } from '~/http/forms.server';
import { toastHeader } from '~/http/toast.server';
import { payoutAccountSchema } from '~/schemas/earnings';
import { changePayoutAccount } from '~/services/payments/earnings.server';
import type { UserRow } from '~/services/accounts/users.server';
import { EARNINGS_TAB_URL } from './__earnings';

const HIDDEN = ['password'];

/**
 * The bank account form of the /me earnings tab (intent=payout-account): one service call, shared with
 * PUT /api/v1/payout-account. Saved: 303 back to the tab with a toast. Refused: the form again with what was typed
 * (never the password) and the message (a field's, or the wrong password's under the password field), marked
 * `payoutForm` so the page knows which of its forms answered.
 */
export async function payoutAccountAction(request: Request, user: UserRow, formData: FormData) {
  const parsed = parseForm(formData, payoutAccountSchema, { hideFields: HIDDEN });
  if (!parsed.ok) return data({ payoutForm: true as const, result: parsed.submission.reply({ hideFields: HIDDEN }) }, { status: 400 });
  const saved = await attempt(() => changePayoutAccount(user, parsed.value, undefined, limitLog(request)));
  if (!saved.ok) return replyWithError(request, parsed.submission, saved.error, { hideFields: HIDDEN, extra: { payoutForm: true as const } });
  return redirect(EARNINGS_TAB_URL, { status: 303, headers: { 'Set-Cookie': await toastHeader({ key: 'profile.payout.saved', type: 'success' }) } });
}
