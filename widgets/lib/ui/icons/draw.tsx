import { icon } from './icon.tsx';

/** a polygon drawn with a pencil's corners */
export const DrawIcon = icon(<path d="M4 9 11 4l8 4-2 9-10 2zM4 9v0M11 4v0M19 8v0M17 17v0M7 19v0" />);
