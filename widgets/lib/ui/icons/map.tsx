import { icon } from './icon.tsx';

/** a folded map: three panels */
export const MapIcon = icon(<path d="M9 4 3 6.5v13.5l6-2.5 6 2.5 6-2.5V4l-6 2.5zM9 4v13.5M15 6.5V20" />);
