/** The mark: a blue map pin with a mountain, drawn inline so it costs no request. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" className="logo">
      <path d="M16 2c-6.1 0-11 4.7-11 10.6C5 20.5 16 30 16 30s11-9.5 11-17.4C27 6.7 22.1 2 16 2z" fill="#1d4ed8" />
      <path d="M9.5 16.5l4-5.5 3 4 2-2.5 4 4z" fill="#fff" />
    </svg>
  );
}
