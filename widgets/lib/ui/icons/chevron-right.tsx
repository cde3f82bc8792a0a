import { icon } from './icon.tsx';

export const ChevronRight = icon(<path d="M9 18l6-6-6-6" />);
