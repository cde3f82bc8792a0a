/** The five placeholders a property shows when it has no photo or its photo fails (id mod 5). */
const PALETTES: Array<[string, string, string]> = [
  ['#dbe7f3', '#9fb8d6', '#123c69'],
  ['#f3e7da', '#d9b99b', '#7a4e3b'],
  ['#e3efe4', '#a9c9ad', '#2f5d3a'],
  ['#ece4f3', '#bfa9d6', '#4b3763'],
  ['#f1eadb', '#d2c29f', '#5a4a2a'],
];

export function PropertyPlaceholder({ index, label }: { index: number; label: string }) {
  const [bg, mid, ink] = PALETTES[((index % 5) + 5) % 5] as [string, string, string];
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox="0 0 160 90"
      preserveAspectRatio="xMidYMid slice"
      className="block w-full h-full"
      part="placeholder"
    >
      <rect width="160" height="90" fill={bg} />
      <path d="M0 70 L40 50 L70 62 L110 40 L160 58 L160 90 L0 90 Z" fill={mid} opacity="0.6" />
      <g
        transform="translate(62 24)"
        fill="none"
        stroke={ink}
        strokeWidth="3"
        strokeLinejoin="round"
        strokeLinecap="round"
      >
        <path d="M2 18 L18 4 L34 18" />
        <path d="M7 14 V34 H29 V14" />
        <path d="M15 34 V24 H21 V34" />
      </g>
    </svg>
  );
}
