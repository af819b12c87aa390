/** Small line icons for the profile header (emoji would depend on the reader's fonts). */
const PATHS = {
  mail: 'M2 4h12v8H2zM2 4l6 5 6-5',
  pin: 'M8 14s5-4.3 5-8A5 5 0 003 6c0 3.7 5 8 5 8zM8 7.8a1.8 1.8 0 100-3.6 1.8 1.8 0 000 3.6z',
  calendar: 'M2.5 3.5h11v10h-11zM2.5 6.5h11M5.5 2v3M10.5 2v3',
} as const;

export function ProfileIcon({ name }: { name: keyof typeof PATHS }) {
  return (
    <svg
      className="profile-icon"
      width="14"
      height="14"
      viewBox="0 0 16 16"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinejoin="round"
      strokeLinecap="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
