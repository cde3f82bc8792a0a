import { icon } from './icon.tsx';

export const CloseIcon = icon(<path d="M18 6L6 18M6 6l12 12" />);
