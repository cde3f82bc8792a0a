import { icon } from './icon.tsx';

export const BedIcon = icon(
  <>
    <path d="M3 18v-8a2 2 0 0 1 2-2h5v6" />
    <path d="M3 14h18v4" />
    <path d="M10 10h8a3 3 0 0 1 3 3v1" />
    <path d="M3 18v2M21 18v2" />
  </>,
);
