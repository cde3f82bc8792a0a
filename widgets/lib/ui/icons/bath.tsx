import { icon } from './icon.tsx';

export const BathIcon = icon(
  <>
    <path d="M4 12h16v3a4 4 0 0 1-4 4H8a4 4 0 0 1-4-4z" />
    <path d="M6 12V6a2 2 0 0 1 4 0" />
    <path d="M7 19l-1 2M17 19l1 2" />
  </>,
);
