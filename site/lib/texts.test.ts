import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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
    // the switch and a text given again (the same: written in the switch)
    document.documentElement.lang = 'es';
    await setText(document.getElementById('p'), 'site.search.hero.titleIn', {
      location: { $t: 'site.locations.cumbaya.name' },
    });
    expect(document.querySelector('h1')?.textContent).toBe('¡Uy! Página no encontrada');
    expect(document.getElementById('p')?.textContent).toBe('Propiedades en venta en Cumbayá');
  });

  it('a page served in its language downloads no texts as it starts, nor for a text it already says; a new text brings them', async () => {
    vi.resetModules();
    const fresh = await import('./texts.ts');
    let asked = 0;
    fresh.useTranslations(() => {
      asked++;
      return import('../../widgets/lib/i18n.ts');
    });
    document.documentElement.lang = 'es';
    const cumbaya = { location: { $t: 'site.locations.cumbaya.name' } };
    document.body.innerHTML = `<h1 data-i18n="site.notFound.title">¡Uy! Página no encontrada</h1><p id="p" data-i18n="site.search.hero.titleIn" data-i18n-params='${JSON.stringify(cumbaya)}'>Propiedades en venta en Cumbayá</p>`;
    const p = document.getElementById('p');
    await fresh.startTexts();
    await fresh.setText(p, 'site.search.hero.titleIn', cumbaya);
    expect(asked).toBe(0);
    await fresh.setText(p, 'site.search.hero.titleIn', { location: { $t: 'site.locations.quito.name' } });
    expect(asked).toBe(1);
    expect(p?.textContent).toBe('Propiedades en venta en Quito');
    expect(document.querySelector('h1')?.textContent).toBe('¡Uy! Página no encontrada');
  });
});
