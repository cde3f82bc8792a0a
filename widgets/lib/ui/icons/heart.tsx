import { icon, type IconProps } from './icon.tsx';

const HEART = (
  <path d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8 3.4 4.5 6.9 4.5c2.1 0 3.5 1.2 5.1 3 1.6-1.8 3-3 5.1-3 3.5 0 5.4 3.5 4.2 6.8-1.8 4.6-9.3 9.2-9.3 9.2z" />
);
const Outlined = icon(HEART);
const Filled = icon(HEART, undefined, 'currentColor');

/** A heart, outlined or filled (a saved listing). */
export function HeartIcon({ filled = false, ...props }: IconProps & { filled?: boolean }) {
  return filled ? <Filled {...props} /> : <Outlined {...props} />;
}
