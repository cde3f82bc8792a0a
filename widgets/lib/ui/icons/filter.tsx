import { icon } from './icon.tsx';

export const FilterIcon = icon(<path d="M4 5h16M7 12h10M10 19h4" />);
