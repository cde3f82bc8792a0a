import { icon } from './icon.tsx';

export const MenuIcon = icon(<path d="M4 7h16M4 12h16M4 17h16" />);
