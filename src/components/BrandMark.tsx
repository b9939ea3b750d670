// The app's mark (public/favicon.svg) drawn inline: as an <img> it was one more download during
// the first screen's render, among what Lighthouse counts before the first paint.
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg viewBox="0 0 100 100" width={size} height={size} aria-hidden="true" focusable="false">
      <rect width="100" height="100" rx="20" fill="#0b3d91" />
      <rect x="28.5" y="48" width="3" height="32" fill="#fff" />
      <rect x="23.5" y="55" width="13" height="17" rx="1.5" fill="#fff" />
      <rect x="48.5" y="32" width="3" height="38" fill="#fff" />
      <rect x="43.5" y="40" width="13" height="22" rx="1.5" fill="#fff" />
      <rect x="68.5" y="16" width="3" height="40" fill="#58d68d" />
      <rect x="63.5" y="24" width="13" height="24" rx="1.5" fill="#58d68d" />
    </svg>
  );
}
