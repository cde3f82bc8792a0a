/**
 * The page the server says while the data behind a page is away (the database restarting, a
 * deadline) or the client must wait (429): whole in itself (no template, no script, nothing it
 * must fetch), in the page's language, never indexed.
 */
import type { Lang } from '../../core/lang.ts';
import type { Translate } from '../../core/translate.ts';
import { markup } from './html.tsx';

const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;text-align:center;padding:15vh 24px}';

export function unavailablePage(t: Translate, lang: Lang): string {
  return `<!doctype html>${markup(
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{t('errors.somethingWentWrong')}</title>
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <h1>{t('errors.somethingWentWrong')}</h1>
        <p>{t('errors.unexpected')}</p>
        <p>
          <a href="">{t('errors.reloadPage')}</a>
        </p>
      </body>
    </html>,
  )}`;
}
