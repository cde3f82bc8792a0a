/** An agent's photo; the placeholder picture when there is none or it fails (docs/product.md §5). */
import { useEffect, useState } from 'react';

function AgentPlaceholder({ className = '' }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 120 120"
      aria-hidden="true"
      className={`block w-full h-full ${className}`}
      part="agent-placeholder"
    >
      <rect width="120" height="120" fill="#e2e8f0" />
      <circle cx="60" cy="46" r="22" fill="#94a3b8" />
      <path d="M20 112c4-24 20-36 40-36s36 12 40 36z" fill="#94a3b8" />
    </svg>
  );
}

export function AgentPhoto({
  photo,
  name,
  className = '',
}: {
  photo: string | undefined;
  name: string;
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [photo]);
  return (
    <span className={`block overflow-hidden bg-surface-subtle ${className}`}>
      {photo && !failed ? (
        <img
          src={photo}
          alt={name}
          loading="lazy"
          decoding="async"
          className="block w-full h-full object-cover"
          onError={() => setFailed(true)}
        />
      ) : (
        <AgentPlaceholder />
      )}
    </span>
  );
}
