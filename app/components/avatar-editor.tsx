import { Form, useFetcher, useSubmit } from '@remix-run/react';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AvatarUploadAnswer } from '~/schemas/avatar';
import { AvatarCropDialog } from './avatar-crop-dialog';

const DEFAULT_AVATAR = '/images/default-avatar.svg';
const ACCEPT = 'image/jpeg,image/png,image/webp';

/**
 * The avatar block of /me (SPEC §2 Avatar block; UI contract in the accounts brief): the picture, an
 * upload/replace form and a remove button, all plain forms posting to /me/avatar so they work with JS off
 * (the server centre-crops; removal asks on a page of its own). With JS, choosing a file opens the crop
 * dialog, whose 100×100 webp goes up through a fetcher (the page's loaders revalidate, so the header's
 * avatar changes too), and removal asks window.confirm first.
 */
export function AvatarEditor({ avatarUrl, name }: { avatarUrl: string | null; name: string }) {
  const { t } = useTranslation();
  const inputId = useId();
  const fetcher = useFetcher<AvatarUploadAnswer>({ key: 'avatar-upload' });
  const submit = useSubmit();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const waiting = useRef(false);
  const busy = fetcher.state !== 'idle';

  // The upload's answer: close and say so, or keep the dialog open with the reason.
  useEffect(() => {
    if (fetcher.state !== 'idle' || !waiting.current) return;
    waiting.current = false;
    const result = fetcher.data;
    if (result && 'ok' in result && result.ok) {
      setFile(null);
      setStatus(t('avatar.uploaded'));
    } else {
      setError(result && 'ok' in result && !result.ok ? result.message : t('avatar.errors.uploadFailed'));
    }
  }, [fetcher.state, fetcher.data, t]);

  const onChoose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again must open the dialog again
    if (!chosen) return;
    setError(null);
    setStatus(null);
    setFile(chosen);
  };

  const upload = (picture: Blob) => {
    const form = new FormData();
    form.set('intent', 'upload');
    form.set('_format', 'json');
    form.set('avatar', new File([picture], 'avatar.webp', { type: picture.type || 'image/webp' }));
    setError(null);
    waiting.current = true;
    fetcher.submit(form, { method: 'post', action: '/me/avatar', encType: 'multipart/form-data' });
  };

  const onRemove = (event: FormEvent<HTMLFormElement>) => {
    // With JS the question is a window.confirm; without JS the server asks on a page.
    event.preventDefault();
    if (!window.confirm(t('avatar.confirmRemove'))) return;
    setStatus(null);
    submit({ intent: 'remove', confirmed: '1' }, { method: 'post', action: '/me/avatar' });
  };

  return (
    <div className="avatar-editor">
      <AvatarPicture src={avatarUrl} alt={t('avatar.alt', { name })} />
      <div className="avatar-editor-controls">
        <Form method="post" action="/me/avatar" encType="multipart/form-data" className="avatar-upload-form">
          <input
            id={inputId}
            className="avatar-file-input"
            type="file"
            name="avatar"
            accept={ACCEPT}
            onChange={onChoose}
            disabled={busy}
          />
          <label htmlFor={inputId} className="avatar-choose">
            {avatarUrl ? t('avatar.replace') : t('avatar.choose')}
          </label>
          <button type="submit" name="intent" value="upload" className="button button-small nojs-only">
            {t('avatar.upload')}
          </button>
          <p className="field-hint small muted avatar-hint nojs-only">{t('avatar.fileHint')}</p>
        </Form>
        {avatarUrl ? (
          <Form method="post" action="/me/avatar" className="avatar-remove-form" onSubmit={onRemove}>
            <button type="submit" name="intent" value="remove" className="button button-small avatar-remove">
              {t('avatar.remove')}
            </button>
          </Form>
        ) : null}
        <p className="small avatar-editor-status" role="status">
          {status}
        </p>
      </div>
      {file ? (
        <AvatarCropDialog
          file={file}
          busy={busy}
          error={error}
          onCancel={() => {
            setFile(null);
            setError(null);
          }}
          onConfirm={upload}
        />
      ) : null}
    </div>
  );
}

/** The current picture; the generated default when there is none or it fails to load (SPEC §3). */
function AvatarPicture({ src, alt }: { src: string | null; alt: string }) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    // An error before hydration fires no React handler: look at the element once mounted.
    const img = ref.current;
    setFailed(!!src && !!img && img.complete && img.naturalWidth === 0);
  }, [src]);
  return (
    <img
      ref={ref}
      className="avatar avatar-editor-picture"
      src={failed || !src ? DEFAULT_AVATAR : src}
      alt={alt}
      width={96}
      height={96}
      onError={() => setFailed(true)}
    />
  );
}
