import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyTexts, currentLang, setText, startTexts, translatorFor, useTranslations } from './texts.ts';

const dict = {
  a: { hello: 'Hello {{name}}', place: 'Cuenca', attr: 'Label {{n}}' },
  evil: '<img src=x onerror=alert(1)>',
};

describe('static texts of the site', () => {
  // the elements' own instance (widgets/lib/i18n.ts), as the widget entry's pageTexts() hands it to the page
  beforeAll(() => useTranslations(() => import('../../widgets/lib/i18n.ts')));
  afterEach(() => {
    document.body.innerHTML = '';
    document.documentElement.lang = 'en';
  });

  it("translates with the elements' instance, the site's texts added to it: keys by path, placeholders filled (a { $t: key } value is itself translated, a text is written as it is), the key shown when missing", async () => {
    const elements = await import('../../widgets/lib/i18n.ts');
    elements.addPageTexts('en', dict);
    const t = await translatorFor('en');
    expect(t('a.hello', { name: 'Ana' })).toBe('Hello Ana');
    expect(t('a.hello', { name: { $t: 'a.place' } })).toBe('Hello Cuenca');
    expect(t('a.hello', { name: '@a.place' })).toBe('Hello @a.place');
    expect(t('a.hello')).toBe('Hello {{name}}');
    expect(t('no.such.key')).toBe('no.such.key');
    // the site's own texts are now the elements' too: one instance for the page
    expect(elements.translator('en')('site.notFound.title')).toBe('Oops! Page not found');
    expect(elements.translator('es')('site.notFound.title')).toBe('site.notFound.title');
    expect((await translatorFor('es'))('site.notFound.title')).toBe('¡Uy! Página no encontrada');
    expect(elements.translator('es')('site.notFound.title')).toBe('¡Uy! Página no encontrada');
  });

  it('writes texts and attributes as text, never as markup', async () => {
    document.body.innerHTML = `<p data-i18n="evil"></p><button data-i18n-attr="aria-label:a.attr;title:a.place" data-i18n-params='{"n":3}'></button>`;
    (await import('../../widgets/lib/i18n.ts')).addPageTexts('en', dict);
    applyTexts(await translatorFor('en'));
    expect(document.querySelector('p')?.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(document.querySelector('img')).toBeNull();
    expect(document.querySelector('button')?.getAttribute('aria-label')).toBe('Label 3');
    expect(document.querySelector('button')?.getAttribute('title')).toBe('Cuenca');
  });

  it('follows <html lang> live and translates texts changed by the page script', async () => {
    document.body.innerHTML = '<h1 data-i18n="site.notFound.title">Oops! Page not found</h1><p id="p"></p>';
    await startTexts();
    expect(currentLang()).toBe('en');
    await setText(document.getElementById('p'), 'site.search.hero.titleIn', {
      location: { $t: 'site.locations.cumbaya.name' },
    });
    expect(document.getElementById('p')?.textContent).toBe('Properties for sale in Cumbayá');
    document.documentElement.lang = 'es';
    await new Promise((r) => setTimeout(r, 50));
    await setText(document.getElementById('p'), 'site.search.hero.titleIn', {
      location: { $t: 'site.locations.cumbaya.name' },
    });
    expect(document.querySelector('h1')?.textContent).toBe('¡Uy! Página no encontrada');
    expect(document.getElementById('p')?.textContent).toBe('Propiedades en venta en Cumbayá');
  });
});
