/** Our wordmark for the Ecuador site (drawn for this project); `compact` is the mark alone, for phones. */
const FONT = "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

export function Logo({ tone, label, compact = false }: { tone: 'light' | 'dark'; label: string; compact?: boolean }) {
  const ink = tone === 'light' ? '#ffffff' : '#0d2c4d';
  const accent = tone === 'light' ? '#ffffff' : '#c8102e';
  return (
    <svg
      viewBox={compact ? '0 0 60 40' : '0 0 172 40'}
      width={compact ? 60 : 172}
      height="40"
      role="img"
      aria-label={label}
      part="logo"
      className="block"
    >
      <text x="0" y="27" fontFamily={FONT} fontSize="28" fontWeight="800" fill={ink} letterSpacing="-0.5">
        e<tspan fill={accent}>X</tspan>p
      </text>
      {compact ? null : (
        <>
          <text x="63" y="17" fontFamily={FONT} fontSize="12.5" fontWeight="700" fill={ink} letterSpacing="2.2">
            REALTY
          </text>
          <text
            x="63"
            y="32"
            fontFamily={FONT}
            fontSize="11"
            fontWeight="500"
            fill={ink}
            letterSpacing="2.6"
            opacity="0.9"
          >
            ECUADOR
          </text>
        </>
      )}
    </svg>
  );
}
