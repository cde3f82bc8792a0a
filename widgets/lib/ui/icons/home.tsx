import { icon } from './icon.tsx';

export const HomeIcon = icon(<><path d="M3 11l9-7 9 7" /><path d="M5 10v10h14V10" /></>);
