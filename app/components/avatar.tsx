import { useEffect, useRef, useState } from 'react';

const DEFAULT_AVATAR = '/images/default-avatar.svg';

/**
 * A round picture; people without one, or whose picture fails to load, get the generated default
 * (SPEC §3). A picture can fail before hydration, when React is not listening yet, so the check also runs
 * once after mount.
 */
export function Avatar({ src, alt, size = 64 }: { src: string | null; alt: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => setFailed(false), [src]);
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && src) setFailed(true);
  }, [src]);
  return (
    <img
      ref={ref}
      className="avatar"
      src={failed || !src ? DEFAULT_AVATAR : src}
      alt={alt}
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
