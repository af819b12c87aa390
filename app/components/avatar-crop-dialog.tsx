import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The crop dialog 'adjust avatar' (SPEC §2 Avatar block, §4 Avatar, §5 Avatar): the chosen picture under a
 * round mask, dragged to pan and zoomed 1 to 3 (step 0.01). Confirm draws the square around the circle onto
 * a 100×100 canvas and hands back a webp (quality 0.9). Page scroll is locked while it is open, Escape
 * cancels, and the slider has the focus on open. The server re-checks and re-encodes whatever it gets.
 */
export const AVATAR_OUTPUT_SIZE = 100;
const ZOOM_MIN = 1;
const ZOOM_MAX = 3;
const KEY_STEP = 0.04; // of the visible square, per arrow key press

interface View {
  zoom: number;
  /** The centre of the visible square, in natural image pixels. */
  cx: number;
  cy: number;
}

export function AvatarCropDialog({
  file,
  busy,
  error,
  onCancel,
  onConfirm,
}: {
  file: File;
  busy: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: (picture: Blob) => void;
}) {
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const sliderRef = useRef<HTMLInputElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const imageRef = useRef<HTMLImageElement>(null);
  const drag = useRef<{ id: number; x: number; y: number; view: View } | null>(null);
  const [src, setSrc] = useState<string | null>(null);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [view, setView] = useState<View>({ zoom: 1, cx: 0, cy: 0 });
  const [unreadable, setUnreadable] = useState(false);
  const [encodeFailed, setEncodeFailed] = useState(false);

  // The picture is read locally (an object URL): nothing leaves the browser before confirm.
  useEffect(() => {
    const url = URL.createObjectURL(file);
    setSrc(url);
    setNatural(null);
    setUnreadable(false);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  // Modal, scroll locked, slider focused; everything restored on close.
  useEffect(() => {
    const dialog = dialogRef.current;
    const previous = document.activeElement as HTMLElement | null;
    const html = document.documentElement;
    const saved = { html: html.style.overflow, body: document.body.style.overflow };
    html.style.overflow = 'hidden';
    document.body.style.overflow = 'hidden';
    if (dialog && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    sliderRef.current?.focus();
    return () => {
      html.style.overflow = saved.html;
      document.body.style.overflow = saved.body;
      if (dialog?.open) dialog.close();
      previous?.focus?.();
    };
  }, []);

  const clamp = (next: View, size = natural): View => {
    if (!size) return next;
    const zoom = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, next.zoom));
    const half = Math.min(size.w, size.h) / zoom / 2; // half the visible square, in image pixels
    return {
      zoom,
      cx: Math.min(size.w - half, Math.max(half, next.cx)),
      cy: Math.min(size.h - half, Math.max(half, next.cy)),
    };
  };

  const onLoad = () => {
    const img = imageRef.current;
    if (!img || !img.naturalWidth || !img.naturalHeight) return setUnreadable(true);
    const size = { w: img.naturalWidth, h: img.naturalHeight };
    setNatural(size);
    setView({ zoom: 1, cx: size.w / 2, cy: size.h / 2 });
  };

  /** Screen pixels per image pixel, for the stage as it is laid out now. */
  const screenScale = (v: View) => {
    const stage = stageRef.current?.getBoundingClientRect().width ?? 0;
    return natural && stage ? (stage / Math.min(natural.w, natural.h)) * v.zoom : 1;
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!natural || busy) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { id: event.pointerId, x: event.clientX, y: event.clientY, view };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start || start.id !== event.pointerId) return;
    const scale = screenScale(start.view);
    setView(
      clamp({
        zoom: start.view.zoom,
        cx: start.view.cx - (event.clientX - start.x) / scale,
        cy: start.view.cy - (event.clientY - start.y) / scale,
      }),
    );
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.id === event.pointerId) drag.current = null;
  };

  // Keyboard panning on the focused picture.
  const onStageKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!natural) return;
    const step = (Math.min(natural.w, natural.h) / view.zoom) * KEY_STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    setView(clamp({ ...view, cx: view.cx + move[0], cy: view.cy + move[1] }));
  };

  const confirm = async () => {
    const img = imageRef.current;
    if (!img || !natural || busy) return;
    setEncodeFailed(false);
    const blob = await cropToBlob(img, view, natural).catch(() => null);
    if (blob) onConfirm(blob);
    else setEncodeFailed(true);
  };

  // Layout as percentages of the stage: the visible square is the stage; the image overflows it.
  const side = natural ? Math.min(natural.w, natural.h) / view.zoom : 1;
  const imageStyle = natural
    ? {
        width: `${(natural.w / side) * 100}%`,
        left: `${(0.5 - view.cx / side) * 100}%`,
        top: `${(0.5 - view.cy / side) * 100}%`,
      }
    : undefined;
  // What went wrong, if anything: a picture the browser cannot read, a canvas that would not encode, or the server's reason.
  const failure = unreadable ? t('avatar.errors.unreadable') : encodeFailed ? '' : error;

  return (
    <dialog
      ref={dialogRef}
      className="avatar-dialog"
      aria-labelledby="avatar-dialog-title"
      aria-describedby="avatar-dialog-hint"
      onCancel={(event) => {
        // Escape: closing is ours to do (the dialog unmounts), not the browser's.
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id="avatar-dialog-title" className="avatar-dialog-title">
        {t('avatar.adjust')}
      </h2>
      <p id="avatar-dialog-hint" className="muted small avatar-dialog-hint">
        {t('avatar.adjustHint')}
      </p>
      <div
        ref={stageRef}
        className={`avatar-stage${natural ? ' is-ready' : ''}`}
        role="img"
        aria-label={t('avatar.preview')}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onStageKey}
      >
        {src && !unreadable ? (
          <img ref={imageRef} src={src} alt="" draggable={false} onLoad={onLoad} onError={() => setUnreadable(true)} style={imageStyle} />
        ) : null}
        <span className="avatar-stage-mask" aria-hidden="true" />
      </div>
      <label className="avatar-zoom">
        <span className="avatar-zoom-label">{t('avatar.zoom')}</span>
        <input
          ref={sliderRef}
          type="range"
          min={ZOOM_MIN}
          max={ZOOM_MAX}
          step={0.01}
          value={view.zoom}
          disabled={busy}
          onChange={(event) => setView(clamp({ ...view, zoom: Number(event.target.value) }))}
        />
        <output className="avatar-zoom-value">{view.zoom.toFixed(2)}×</output>
      </label>
      {failure !== null ? (
        <p className="form-error avatar-dialog-error" role="alert">
          {failure ? t('avatar.uploadFailedWith', { reason: failure }) : t('avatar.uploadFailed')}
        </p>
      ) : null}
      <div className="avatar-dialog-actions">
        <button type="button" className="button button-secondary" onClick={onCancel} disabled={busy}>
          {t('avatar.cancel')}
        </button>
        <button type="button" className="button" onClick={confirm} disabled={!natural || busy} aria-busy={busy}>
          {busy ? t('avatar.uploading') : t('avatar.confirmUpload')}
        </button>
      </div>
    </dialog>
  );
}

/**
 * The visible square at full quality onto a 100×100 canvas (halving first when the source is much bigger,
 * which keeps a large photo from turning to mush in one resample), as webp at quality 0.9.
 */
async function cropToBlob(img: HTMLImageElement, view: View, natural: { w: number; h: number }): Promise<Blob> {
  const side = Math.min(natural.w, natural.h) / view.zoom;
  const sx = view.cx - side / 2;
  const sy = view.cy - side / 2;
  let source: CanvasImageSource = img;
  let box = { x: sx, y: sy, size: side };
  while (box.size > AVATAR_OUTPUT_SIZE * 2) {
    const size = Math.round(box.size / 2);
    const step = document.createElement('canvas');
    step.width = step.height = size;
    const ctx = step.getContext('2d');
    if (!ctx) break;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(source, box.x, box.y, box.size, box.size, 0, 0, size, size);
    source = step;
    box = { x: 0, y: 0, size };
  }
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = AVATAR_OUTPUT_SIZE;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no canvas');
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, box.x, box.y, box.size, box.size, 0, 0, AVATAR_OUTPUT_SIZE, AVATAR_OUTPUT_SIZE);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('toBlob'))), 'image/webp', 0.9),
  );
}
