import { afterEach, describe, expect, it } from 'vitest';
import { applyTexts, currentLang, setText, startTexts, translate } from './texts.ts';

const dict = { a: { hello: 'Hello {{name}}', place: 'Cuenca', attr: 'Label {{n}}' }, evil: '<img src=x onerror=alert(1)>' };

describe('static texts of the site', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    document.documentElement.lang = 'en';
  });

  it('finds keys by path, fills placeholders (a { $t: key } value is itself translated, a text is written as it is), shows the key when missing', () => {
    expect(translate(dict, 'a.hello', { name: 'Ana' })).toBe('Hello Ana');
    expect(translate(dict, 'a.hello', { name: { $t: 'a.place' } })).toBe('Hello Cuenca');
    expect(translate(dict, 'a.hello', { name: '@a.place' })).toBe('Hello @a.place');
    expect(translate(dict, 'a.hello')).toBe('Hello {{name}}');
    expect(translate(dict, 'no.such.key')).toBe('no.such.key');
  });

  it('writes texts and attributes as text, never as markup', () => {
    document.body.innerHTML = `<p data-i18n="evil"></p><button data-i18n-attr="aria-label:a.attr;title:a.place" data-i18n-params='{"n":3}'></button>`;
    applyTexts(dict);
    expect(document.querySelector('p')?.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(document.querySelector('img')).toBeNull();
    expect(document.querySelector('button')?.getAttribute('aria-label')).toBe('Label 3');
    expect(document.querySelector('button')?.getAttribute('title')).toBe('Cuenca');
  });

  it('follows <html lang> live and translates texts changed by the page script', async () => {
    document.body.innerHTML = '<h1 data-i18n="site.notFound.title">Oops! Page not found</h1><p id="p"></p>';
    await startTexts();
    expect(currentLang()).toBe('en');
    await setText(document.getElementById('p'), 'site.search.hero.titleIn', { location: { $t: 'site.locations.cumbaya.name' } });
    expect(document.getElementById('p')?.textContent).toBe('Properties for sale in Cumbayá');
    document.documentElement.lang = 'es';
    await new Promise((r) => setTimeout(r, 50));
    await setText(document.getElementById('p'), 'site.search.hero.titleIn', { location: { $t: 'site.locations.cumbaya.name' } });
    expect(document.querySelector('h1')?.textContent).toBe('¡Uy! Página no encontrada');
    expect(document.getElementById('p')?.textContent).toBe('Propiedades en venta en Cumbayá');
  });
});
