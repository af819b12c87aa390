import { Form, Link, useRevalidator } from '@remix-run/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PhotoStatus } from '~/components/photo-status';
import { MAX_PHOTOS_PER_GUIDE, PHOTO_MAX_BYTES, PHOTO_MAX_SIDE, photoStatusLabelKey, type PhotoView } from '~/schemas/trust';

/**
 * The guide photo gallery on /me (SPEC §2 Guide photo gallery, issue 11). Plain forms first: the upload is
 * a multipart form and deleting (one, or the ticked ones) posts to /me/photos, which answers with a
 * redirect and a toast. With JS the upload is compressed in the browser (webp, ≤ 1200 px, ≤ 0.5 MB; on
 * failure the original is sent with a note), and the batch delete sends one DELETE per id in parallel.
 * A thumbnail opens a full-screen preview (a modal dialog) closed by its button, a click outside the picture
 * or Escape; focus goes back to the thumbnail.
 */
export function PhotoGallery({ photos, locked }: { photos: PhotoView[]; locked: boolean }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<number | null>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLAnchorElement | null>(null);
  const full = photos.length >= MAX_PHOTOS_PER_GUIDE;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (preview !== null && !dialog.open) dialog.showModal();
    if (preview === null && dialog.open) dialog.close();
  }, [preview]);

  const closePreview = () => {
    setPreview(null);
    openerRef.current?.focus();
  };

  async function onUpload(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const input = form.elements.namedItem('photo') as HTMLInputElement | null;
    const file = input?.files?.[0];
    if (!file) return; // the browser's required check, or the server's message
    event.preventDefault();
    setBusy(true);
    const notes: string[] = [];
    let upload: Blob = file;
    let name = file.name;
    try {
      upload = await compressToWebp(file);
      name = name.replace(/\.[^.]*$/, '') + '.webp';
    } catch {
      notes.push(t('trust.photos.compressFailed'));
    }
    const body = new FormData();
    body.append('photo', upload, name);
    try {
      const res = await fetch('/api/v1/photos', { method: 'POST', body, credentials: 'same-origin', headers: { Accept: 'application/json' } });
      const json = (await res.json().catch(() => null)) as { success?: boolean; message?: string } | null;
      if (!res.ok || !json?.success) throw new Error(json?.message ?? res.statusText);
      notes.push(t('trust.photos.uploaded'));
      setMessage({ text: notes.join(' '), error: false });
      form.reset();
    } catch (error) {
      setMessage({ text: [...notes, t('trust.photos.uploadFailed', { reason: (error as Error).message })].join(' '), error: true });
    } finally {
      setBusy(false);
      revalidator.revalidate();
    }
  }

  async function onBatchDelete(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const ids = [...document.querySelectorAll<HTMLInputElement>('input[name="ids"][form="photo-batch"]:checked')].map((i) => i.value);
    event.preventDefault();
    if (!ids.length) {
      setMessage({ text: t('trust.photos.noneSelected'), error: true });
      return;
    }
    setBusy(true);
    const results = await Promise.allSettled(
      ids.map(async (id) => {
        const res = await fetch(`/api/v1/photos/${id}`, { method: 'DELETE', credentials: 'same-origin', headers: { Accept: 'application/json' } });
        const json = (await res.json().catch(() => null)) as { success?: boolean; message?: string } | null;
        if (!res.ok || !json?.success) throw new Error(json?.message ?? res.statusText);
      }),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    setMessage(
      failed.length
        ? { text: t('trust.photos.batchDeleteFailed', { reason: failed.map((f) => (f.reason as Error).message).join('; ') }), error: true }
        : { text: t('trust.photos.deleted', { count: ids.length }), error: false },
    );
    form.reset();
    setBusy(false);
    revalidator.revalidate();
  }

  const shown = preview !== null ? photos[preview] : undefined;
  const deletable = photos.filter((p) => p.status !== 'approved');
  return (
    <section className="card profile-card-box gallery" aria-labelledby="photos-card">
      <h2 id="photos-card" className="profile-card-title">
        {t('trust.photos.title')} <span className="small muted">{t('trust.photos.count', { count: photos.length, max: MAX_PHOTOS_PER_GUIDE })}</span>
      </h2>
      <p className="notice-card gallery-notice small">{t('trust.photos.notice', { max: MAX_PHOTOS_PER_GUIDE })}</p>
      {message && (
        <p className={message.error ? 'form-error' : 'form-success'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      {photos.length === 0 ? (
        <p className="muted">{t('trust.photos.empty')}</p>
      ) : (
        <ul className="gallery-grid">
          {photos.map((p, i) => {
            const status = t(photoStatusLabelKey(p.status));
            return (
              <li key={p.id} className="gallery-item" data-testid={`gallery-photo-${p.id}`}>
                <a
                  href={p.url}
                  className="gallery-thumb"
                  aria-label={t('trust.photos.open', { index: i + 1 })}
                  onClick={(e) => {
                    e.preventDefault();
                    openerRef.current = e.currentTarget;
                    setPreview(i);
                  }}
                >
                  <img src={p.url} alt={t('trust.photos.alt', { index: i + 1, status })} width={160} height={120} loading="lazy" />
                </a>
                <div className="gallery-meta">
                  <PhotoStatus status={p.status} />
                  {p.status !== 'approved' && (
                    <label>
                      <input type="checkbox" name="ids" value={p.id} form="photo-batch" />
                      <span className="visually-hidden">{t('trust.photos.select', { index: i + 1 })}</span>
                    </label>
                  )}
                </div>
                {p.rejectionReason && (
                  <p className="small gallery-reason" data-testid={`photo-reason-${p.id}`}>
                    {t('trust.photos.rejectionReason', { reason: p.rejectionReason })}
                  </p>
                )}
                {p.status !== 'approved' && (
                  <Form method="post" action="/me/photos">
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="ids" value={p.id} />
                    <button type="submit" className="button button-small button-secondary" aria-label={t('trust.photos.deleteOne', { index: i + 1 })}>
                      {t('trust.photos.delete')}
                    </button>
                  </Form>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {deletable.length > 1 && (
        <Form method="post" action="/me/photos" id="photo-batch" className="gallery-actions" onSubmit={onBatchDelete}>
          <input type="hidden" name="intent" value="delete" />
          <button type="submit" className="button button-small button-danger" disabled={busy}>
            {t('trust.photos.deleteSelected')}
          </button>
        </Form>
      )}
      {locked ? (
        <div className="gallery-lock" data-testid="photos-locked">
          <p className="status-line status-warn">
            <span aria-hidden="true">🔒 </span>
            {t('trust.photos.locked')}
          </p>
          <Link to="/id-verification" className="button button-small">
            {t('trust.photos.goVerify')}
          </Link>
        </div>
      ) : full ? (
        <p className="small muted">{t('trust.photos.full', { max: MAX_PHOTOS_PER_GUIDE })}</p>
      ) : (
        <Form method="post" action="/me/photos" encType="multipart/form-data" className="gallery-upload" onSubmit={onUpload}>
          <input type="hidden" name="intent" value="upload" />
          <div className="field">
            <label htmlFor="photo-file">{t('trust.photos.choose')}</label>
            <input id="photo-file" type="file" name="photo" accept="image/jpeg,image/png,image/webp" required aria-describedby="photo-file-hint" />
            <p id="photo-file-hint" className="field-hint">
              {t('trust.photos.fileHint')}
            </p>
          </div>
          <button type="submit" className="button button-small" disabled={busy}>
            {busy ? t('trust.photos.uploading') : t('trust.photos.upload')}
          </button>
        </Form>
      )}
      <dialog
        ref={dialogRef}
        className="photo-preview"
        aria-label={t('trust.photos.preview')}
        onCancel={(e) => {
          e.preventDefault();
          closePreview();
        }}
        onClick={(e) => {
          // A click anywhere but the picture closes (the backdrop and the space around the picture).
          if (!(e.target instanceof HTMLImageElement)) closePreview();
        }}
      >
        {shown && (
          <div className="photo-preview-inner">
            <button type="button" className="button photo-preview-close" onClick={closePreview} autoFocus>
              {t('trust.photos.close')}
            </button>
            <img src={shown.url} alt={t('trust.photos.alt', { index: (preview ?? 0) + 1, status: t(photoStatusLabelKey(shown.status)) })} />
          </div>
        )}
      </dialog>
    </section>
  );
}

/** Browser-side compression (SPEC §5): webp, at most 1200 px on the longer side and 0.5 MB; throws when it cannot. */
async function compressToWebp(file: File): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  let scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  for (let attempt = 0; attempt < 6; attempt++) {
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no canvas');
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    for (const quality of [0.85, 0.7, 0.55]) {
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/webp', quality));
      if (!blob || blob.type !== 'image/webp') throw new Error('webp not supported');
      if (blob.size <= PHOTO_MAX_BYTES) return blob;
    }
    scale *= 0.75;
  }
  throw new Error('too large');
}
