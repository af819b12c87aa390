import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { requireUser } from '~/http/session.server';
import { attempt, errorMessage, parseForm } from '~/http/forms.server';
import { redirectWithToast } from '~/http/toast.server';
import { photoGalleryFormSchema } from '~/schemas/trust';
import { AppError } from '~/services/platform/errors.server';
import { readUploadForm, uploadedBytes } from '~/services/platform/image-pipeline.server';
import { assertMayUploadPhoto, deletePhoto, uploadPhoto } from '~/services/trust/photos.server';

/**
 * POST /me/photos: the /me gallery's forms without JS (issue 11). intent=upload stores a photo (multipart
 * `photo`), intent=delete deletes the ticked photos (`ids`, repeated); both go back to /me with a toast,
 * the error's translated message on failure. With JS the gallery calls /api/v1/photos instead.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect('/me');
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  let intent = 'upload';
  const outcome = await attempt(async () => {
    // Refuse an upload before reading its body when the person may not upload at all.
    if ((request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) await assertMayUploadPhoto(user, user.id);
    const form = await readUploadForm(request);
    intent = form.get('intent') === 'delete' ? 'delete' : 'upload';
    const parsed = parseForm(form, photoGalleryFormSchema);
    if (!parsed.ok) throw new AppError('VALIDATION_ERROR', { messageKey: parsed.fieldErrors.ids?.[0] });
    const input = parsed.value;
    if (input.intent === 'upload') {
      await uploadPhoto(user, user.id, await uploadedBytes(form, 'photo', 'trust.photos.errors.noFile'));
      return redirectWithToast('/me', { key: 'trust.photos.uploaded', type: 'success' });
    }
    for (const id of input.ids) await deletePhoto(user, id);
    return redirectWithToast('/me', { key: 'trust.photos.deleted', params: { count: input.ids.length }, type: 'success' });
  });
  if (outcome.ok) return outcome.value;
  return redirectWithToast('/me', {
    key: intent === 'delete' ? 'trust.photos.deleteFailed' : 'trust.photos.uploadFailed',
    params: { reason: await errorMessage(request, outcome.error) },
    type: 'error',
  });
}
