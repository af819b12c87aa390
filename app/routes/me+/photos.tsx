import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { requireUser } from '~/http/auth.server';
import { getFixedT } from '~/i18n/i18n.server';
import { redirectWithToast } from '~/http/toast.server';
import { parseIdParam } from '~/lib/ids';
import { AppError } from '~/services/errors.server';
import { readUploadForm, uploadedBytes } from '~/services/image-pipeline.server';
import { assertMayUploadPhoto, deletePhoto, uploadPhoto } from '~/services/photos.server';

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
  try {
    // Refuse an upload before reading its body when the person may not upload at all.
    if ((request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) await assertMayUploadPhoto(user, user.id);
    const form = await readUploadForm(request);
    intent = String(form.get('intent') ?? '');
    if (intent === 'upload') {
      await uploadPhoto(user, user.id, await uploadedBytes(form, 'photo', 'trust.photos.errors.noFile'));
      return redirectWithToast('/me', { key: 'trust.photos.uploaded', type: 'success' });
    }
    if (intent === 'delete') {
      const ids = form.getAll('ids').map((v) => parseIdParam(String(v))).filter((v): v is number => v !== undefined);
      if (!ids.length) throw new AppError('VALIDATION_ERROR', { messageKey: 'trust.photos.noneSelected' });
      for (const id of ids) await deletePhoto(user, id);
      return redirectWithToast('/me', { key: 'trust.photos.deleted', params: { count: ids.length }, type: 'success' });
    }
    throw new AppError('VALIDATION_ERROR');
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const t = await getFixedT(request);
    const reason = t(error.messageKey, error.params);
    return redirectWithToast('/me', {
      key: intent === 'delete' ? 'trust.photos.deleteFailed' : 'trust.photos.uploadFailed',
      params: { reason },
      type: 'error',
    });
  }
}
