/** Small inline icons (decorative: always aria-hidden; the control carries the name), one file each so a page loads the ones it shows. */
import type { ReactElement } from 'react';

export type IconProps = { className?: string; size?: number };

/** An icon of these paths; `fill` fills them (a filled heart), else they are outlined. */
export function icon(paths: ReactElement, viewBox = '0 0 24 24', fill = 'none') {
  return function Icon({ className = '', size = 20 }: IconProps) {
    return (
      <svg
        aria-hidden="true"
        focusable="false"
        width={size}
        height={size}
        viewBox={viewBox}
        fill={fill}
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        className={className}
      >
        {paths}
      </svg>
    );
  };
}
