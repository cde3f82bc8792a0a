import { icon } from './icon.tsx';

export const AreaIcon = icon(
  <>
    <rect x="4" y="4" width="16" height="16" rx="1" />
    <path d="M4 9h3M4 14h3M9 4v3M14 4v3" />
  </>,
);
