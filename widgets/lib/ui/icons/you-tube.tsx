import { icon } from './icon.tsx';

export const YouTubeIcon = icon(
  <>
    <rect x="2.5" y="5.5" width="19" height="13" rx="4" />
    <path d="M10 9.2v5.6l4.8-2.8z" />
  </>,
);
