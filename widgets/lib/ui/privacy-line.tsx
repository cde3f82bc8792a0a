/**
 * The line beside a form's button that says what happens to what she types, with the link to our
 * privacy notice (docs/privacy.md), on our site whichever page the form is on. Its words are the
 * form's own (the caller's locale group).
 */
import { useElement } from '../element.tsx';
import { siteUrl } from '../site-links.ts';

export function PrivacyLine({ text, link }: { text: string; link: string }) {
  const { site, lang } = useElement();
  return (
    <p className="m-0 text-xs text-ink-muted" part="privacy">
      {text}{' '}
      <a href={siteUrl('/privacy', site, lang)} target="_blank" rel="noopener" className="text-[color:inherit] underline underline-offset-2">
        {link}
      </a>
    </p>
  );
}
