import { parseWithZod } from '@conform-to/zod/v4';
import { data } from '@remix-run/node';
import { SUPPORTED_LOCALES, type Locale } from '~/i18n/config';
import { bannerInputSchema, type Banner, type BannerInput, type BannerView } from '~/schemas/banners';
import type { Viewer } from '~/services/platform/access.server';
import { bannerImagePreview, bannerView, storeBannerImage } from '~/services/admin/banners.server';
import { AppError, parseValue } from '~/services/platform/errors.server';
import { readUploadForm } from '~/services/platform/image-pipeline.server';
import { mediaType } from './body.server';
import { replyWithError } from './forms.server';
import { pageErrorResponse, readForm } from './page.server';
import { redirectWithToast } from './toast.server';

/**
 * The banner form's action, for /admin/banners/new and /admin/banners/:id (issue 22). A multipart post: the
 * picture first (checked and stored through the image pipeline; its key then travels in the form, so a preview
 * or a refused save never asks for the file again), then the fields through the shared schema. `intent=preview`
 * answers the form again, every typed value kept, with the banner drawn as the home page would show it in each
 * language; `intent=save` runs the one service call and goes back to the list. A refusal re-renders the form
 * with the translated messages next to their fields.
 */
export async function bannerFormAction(request: Request, admin: Viewer, save: (input: BannerInput) => Promise<unknown>, done: { key: string }) {
  const seen = new Map<string, string>();
  let form: FormData;
  let imageError: AppError | undefined;
  try {
    // Not multipart (no file): read as every page action reads its form (another media type is the 415 page).
    form = mediaType(request) === 'multipart/form-data' ? await readUploadForm(request, seen) : await readForm(request);
  } catch (error) {
    // A multipart body that cannot be read is the 400 page.
    if (!(error instanceof AppError) || error.code !== 'FILE_TOO_LARGE') throw pageErrorResponse(error);
    // A file over 10 MiB: the fields read before it are kept, the picture is refused next to its field.
    form = new FormData();
    for (const [name, value] of seen) form.set(name, value);
    imageError = new AppError('FILE_TOO_LARGE', { messageKey: 'banners.errors.imageTooLarge', fieldErrors: { image: ['banners.errors.imageTooLarge'] } });
  }
  const file = form.get('image');
  form.delete('image');
  if (file && typeof file !== 'string' && file.size > 0) {
    try {
      form.set('imageKey', await storeBannerImage(admin, Buffer.from(await file.arrayBuffer())));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      imageError = error;
    }
  }
  if (form.get('removeImage') === 'on') form.delete('imageKey');
  form.delete('removeImage');
  const intent = form.get('intent') === 'preview' ? 'preview' : 'save';
  const submission = parseWithZod(form, { schema: bannerInputSchema });
  if (submission.status !== 'success' || imageError) {
    const fieldErrors = imageError?.fieldErrors ?? {};
    const result = submission.reply({ fieldErrors, formErrors: imageError && !imageError.fieldErrors ? [imageError.messageKey] : [] });
    return data({ result, preview: null }, { status: imageError?.status ?? 400 });
  }
  if (intent === 'preview') {
    const imageUrl = await bannerImagePreview(admin, submission.value.imageKey);
    return data({ result: submission.reply(), preview: previewViews(submission.value, imageUrl) });
  }
  try {
    await save(submission.value);
  } catch (error) {
    return replyWithError(request, submission, error, { extra: { preview: null } });
  }
  return redirectWithToast('/admin/banners', { key: done.key, type: 'success', params: { title: submission.value.title } });
}

/** The banner as the home page would draw it, in each language (zh-TW where a language has no text). */
function previewViews(input: BannerInput, imageUrl: string | null): Record<Locale, BannerView> {
  const row = {
    id: 0,
    title: input.title,
    titleEn: input.titleEn ?? null,
    titleJa: input.titleJa ?? null,
    subtitle: input.subtitle ?? null,
    subtitleEn: input.subtitleEn ?? null,
    subtitleJa: input.subtitleJa ?? null,
    linkUrl: input.linkUrl ?? null,
    imageKey: null,
  };
  return Object.fromEntries(SUPPORTED_LOCALES.map((locale) => [locale, { ...bannerView(row, locale), id: `preview-${locale}`, imageUrl }])) as Record<Locale, BannerView>;
}

/**
 * A multipart /api/v1/admin/banners body: the optional `image` file (checked and stored first) and the fields,
 * read by the same schema as JSON bodies; `current` makes it an update (fields left out keep their value).
 */
export async function readBannerUpload(request: Request, admin: Viewer, current?: Record<string, unknown>): Promise<BannerInput> {
  const form = await readUploadForm(request);
  const file = form.get('image');
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form) if (typeof value === 'string') fields[name] = value;
  if (file && typeof file !== 'string' && file.size > 0) fields.imageKey = await storeBannerImage(admin, Buffer.from(await file.arrayBuffer()));
  return parseValue(bannerInputSchema, { ...current, ...fields });
}

/** A banner as an update's starting point (PUT): the fields the schema reads, with their current values. */
export function bannerInputOf(banner: Banner): Record<string, unknown> {
  const { title, titleEn, titleJa, subtitle, subtitleEn, subtitleJa, linkUrl, isActive, startsAt, endsAt, imageKey } = banner;
  return { title, titleEn, titleJa, subtitle, subtitleEn, subtitleJa, linkUrl, isActive, startsAt, endsAt, imageKey };
}
