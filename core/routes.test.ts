import { describe, expect, it } from 'vitest';
import { localizedPath, splitLangPath, twinPath } from './routes.ts';

describe('the Spanish addresses that say it in Spanish', () => {
  it("links to the agents' area in Spanish with the Spanish word, and reads either Spanish address as the same page", () => {
    expect(localizedPath('/agent', 'es')).toBe('/es/agente');
    expect(localizedPath('/es/agente', 'en')).toBe('/agent');
    expect(splitLangPath('/es/agente')).toEqual({ lang: 'es', path: '/agent' });
    expect(splitLangPath('/es/agent')).toEqual({ lang: 'es', path: '/agent' });
    expect(twinPath('/agent')).toBe('/es/agente');
    expect(twinPath('/es/agente')).toBe('/agent');
    // the others keep the English path under /es, and /agente is no English page
    expect(localizedPath('/about', 'es')).toBe('/es/about');
    expect(splitLangPath('/agente')).toEqual({ lang: 'en', path: '/agente' });
  });

  it('says the pages under a Spanish word with it too: a project, a privacy page of its own word', () => {
    expect(localizedPath('/projects/altos-de-la-carolina', 'es')).toBe('/es/proyectos/altos-de-la-carolina');
    expect(splitLangPath('/es/proyectos/altos-de-la-carolina')).toEqual({
      lang: 'es',
      path: '/projects/altos-de-la-carolina',
    });
    expect(twinPath('/es/proyectos')).toBe('/projects');
    expect(localizedPath('/privacy/my-data', 'es')).toBe('/es/privacidad/mis-datos');
    expect(splitLangPath('/es/privacidad/mis-datos')).toEqual({ lang: 'es', path: '/privacy/my-data' });
    // a word only as the start of another is not swapped
    expect(localizedPath('/projects-old', 'es')).toBe('/es/projects-old');
  });
});
