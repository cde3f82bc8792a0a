/** Small inline icons (decorative: always aria-hidden; the control carries the name). */
import type { ReactElement } from 'react';

type IconProps = { className?: string; size?: number };

function icon(paths: ReactElement, viewBox = '0 0 24 24') {
  return function Icon({ className = '', size = 20 }: IconProps) {
    return (
      <svg aria-hidden="true" focusable="false" width={size} height={size} viewBox={viewBox} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" className={className}>
        {paths}
      </svg>
    );
  };
}

export const BedIcon = icon(<><path d="M3 18v-8a2 2 0 0 1 2-2h5v6" /><path d="M3 14h18v4" /><path d="M10 10h8a3 3 0 0 1 3 3v1" /><path d="M3 18v2M21 18v2" /></>);
export const BathIcon = icon(<><path d="M4 12h16v3a4 4 0 0 1-4 4H8a4 4 0 0 1-4-4z" /><path d="M6 12V6a2 2 0 0 1 4 0" /><path d="M7 19l-1 2M17 19l1 2" /></>);
export const AreaIcon = icon(<><rect x="4" y="4" width="16" height="16" rx="1" /><path d="M4 9h3M4 14h3M9 4v3M14 4v3" /></>);
export const ChevronLeft = icon(<path d="M15 18l-6-6 6-6" />);
export const ChevronRight = icon(<path d="M9 18l6-6-6-6" />);
export const CloseIcon = icon(<path d="M18 6L6 18M6 6l12 12" />);
export const PhoneIcon = icon(<path d="M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1.9.4 1.8.7 2.7a2 2 0 0 1-.5 2.1L8 9.8a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.7.7a2 2 0 0 1 1.7 2z" />);
export const MailIcon = icon(<><rect x="3" y="5" width="18" height="14" rx="2" /><path d="M3 7l9 6 9-6" /></>);
export const CopyIcon = icon(<><rect x="9" y="9" width="12" height="12" rx="2" /><path d="M5 15V5a2 2 0 0 1 2-2h10" /></>);
export const CheckIcon = icon(<path d="M5 12l5 5L20 7" />);
export const PinIcon = icon(<><path d="M12 21s-7-6.2-7-11a7 7 0 0 1 14 0c0 4.8-7 11-7 11z" /><circle cx="12" cy="10" r="2.5" /></>);
export const SearchIcon = icon(<><circle cx="11" cy="11" r="7" /><path d="M21 21l-5-5" /></>);
export const FilterIcon = icon(<path d="M4 5h16M7 12h10M10 19h4" />);
export const HomeIcon = icon(<><path d="M3 11l9-7 9 7" /><path d="M5 10v10h14V10" /></>);
export const GlobeIcon = icon(<><circle cx="12" cy="12" r="9" /><path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" /></>);
export const WhatsAppIcon = function WhatsAppIcon({ className = '', size = 20 }: IconProps) {
  return (
    <svg aria-hidden="true" focusable="false" width={size} height={size} viewBox="0 0 24 24" fill="currentColor" className={className}>
      <path d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2zm0 18.2a8.2 8.2 0 0 1-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8-.2-.1-.4-.1-.6.1l-.8 1c-.1.2-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.3-.4.3-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.9c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 2.9 2.9 0 0 0-.9 2.2 5 5 0 0 0 1.1 2.7 11.5 11.5 0 0 0 4.4 3.9c1.6.7 2.3.7 3.1.6a2.7 2.7 0 0 0 1.8-1.3c.2-.6.2-1.1.2-1.3-.1-.1-.3-.2-.5-.3z" />
    </svg>
  );
};
export const MenuIcon = icon(<path d="M4 7h16M4 12h16M4 17h16" />);
export const ShareIcon = icon(<><circle cx="18" cy="5" r="2.5" /><circle cx="6" cy="12" r="2.5" /><circle cx="18" cy="19" r="2.5" /><path d="M8.2 10.8l7.6-4.4M8.2 13.2l7.6 4.4" /></>);
export const LinkIcon = icon(<><path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" /><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" /></>);
export const ExternalIcon = icon(<><path d="M14 4h6v6" /><path d="M20 4l-9 9" /><path d="M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" /></>);
export const FacebookIcon = icon(<path d="M15 3h-2.5A3.5 3.5 0 0 0 9 6.5V10H6.5v3.5H9V21h3.5v-7.5H15l.5-3.5h-3V7a1 1 0 0 1 1-1H15z" />);
export const LinkedInIcon = icon(<><rect x="3" y="3" width="18" height="18" rx="2" /><path d="M8 10.5V17M8 7.5v.01M12 17v-6.5M12 13.5a2.5 2.5 0 0 1 5 0V17" /></>);
export const InstagramIcon = icon(<><rect x="3" y="3" width="18" height="18" rx="5" /><circle cx="12" cy="12" r="4" /><path d="M17.5 6.5v.01" /></>);
export const YouTubeIcon = icon(<><rect x="2.5" y="5.5" width="19" height="13" rx="4" /><path d="M10 9.2v5.6l4.8-2.8z" /></>);
