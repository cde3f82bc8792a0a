import { icon } from './icon.tsx';

export const CheckIcon = icon(<path d="M5 12l5 5L20 7" />);
