/** A round picture; people without one get the generated default (SPEC §3). */
export function Avatar({ src, alt, size = 64 }: { src: string | null; alt: string; size?: number }) {
  return (
    <img
      className="avatar"
      src={src ?? '/images/default-avatar.svg'}
      alt={alt}
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
    />
  );
}
