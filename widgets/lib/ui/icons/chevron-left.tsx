import { icon } from './icon.tsx';

export const ChevronLeft = icon(<path d="M15 18l-6-6 6-6" />);
