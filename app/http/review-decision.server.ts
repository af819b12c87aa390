import { parseWithZod } from '@conform-to/zod/v4';
import { data } from '@remix-run/node';
import { z } from 'zod';
import { parseIdParam } from '~/lib/ids';
import { AppError } from '~/services/platform/errors.server';
import { replyWithError } from './forms.server';

const approveSchema = z.object({});

/**
 * The action behind a ReviewDecision form (app/components/review-decision.tsx): reads `id` and `intent`,
 * checks a rejection with `rejectSchema`, runs the decision, and answers a refusal as a conform reply for
 * that one item (`{ id, result }`, 400 or the service's status) so the page re-renders it with the values.
 */
export async function reviewDecision<S extends z.ZodType>(
  request: Request,
  formData: FormData,
  {
    rejectSchema,
    approve,
    reject,
  }: {
    rejectSchema: S;
    approve: (id: number) => Promise<Response>;
    reject: (id: number, value: z.infer<S>) => Promise<Response>;
  },
) {
  const idText = String(formData.get('id') ?? '');
  const id = parseIdParam(idText) ?? 0;
  const intent = formData.get('intent');
  const submission = parseWithZod(formData, { schema: intent === 'reject' ? rejectSchema : approveSchema });
  if (submission.status !== 'success') return data({ id, result: submission.reply() }, { status: 400 });
  try {
    if (!id) throw new AppError('NOT_FOUND');
    if (intent === 'approve') return await approve(id);
    if (intent === 'reject') return await reject(id, submission.value as z.infer<S>);
    throw new AppError('VALIDATION_ERROR');
  } catch (error) {
    return replyWithError(request, submission, error, { extra: { id } });
  }
}
