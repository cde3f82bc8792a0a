import { describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import es from '../locales/es.json' with { type: 'json' };
import { translatorFor } from '../translate.ts';
import { languageNames, profileHref, toAgent, toAgentProfile } from './agent.ts';

const API = 'https://api.example';
const base = {
  id: 7,
  first_name: ' Ana ',
  last_name: ' Vera ',
  email: ' ana@x.ec ',
  phone: '099',
  picture: '  /media/agents/agent-07.svg  ',
  country_code: 'EC',
};

describe('agents as shown (docs/product.md §3)', () => {
  it('joins and trims the name, trims the picture, leaves the location empty', () => {
    expect(toAgent(base, API)).toEqual({
      id: '7',
      name: 'Ana Vera',
      photo: `${API}/media/agents/agent-07.svg`,
      location: '',
      email: 'ana@x.ec',
      phone: '099',
    });
    expect(toAgent({ ...base, first_name: '  ', last_name: null }, API).name).toBe('');
    expect(toAgent({ ...base, last_name: null }, API).name).toBe('Ana');
    expect(toAgent({ ...base, picture: '   ' }, API).photo).toBeUndefined();
    expect(toAgent({ ...base, picture: null }, API).photo).toBeUndefined();
    expect(toAgent({ ...base, picture: 'javascript:alert(1)' }, API).photo).toBeUndefined();
  });

  it('keeps profile links only when http(s), and the lists without blanks', () => {
    const p = toAgentProfile(
      {
        ...base,
        location: 'Quito',
        about: ' Hola ',
        languages: ['English', ' ', 'Spanish'],
        specializations: null,
        certifications: ['CRS'],
        locations_served: ['Quito', 'Cumbayá'],
        website: 'https://ana.example',
        facebook: 'javascript:alert(1)',
        instagram: 'instagram.com/ana',
        linkedin: 'http://linkedin.com/in/ana',
      },
      API,
    );
    expect(p).toMatchObject({
      firstName: 'Ana',
      lastName: 'Vera',
      location: 'Quito',
      about: 'Hola',
      languages: ['English', 'Spanish'],
      specializations: [],
      certifications: ['CRS'],
      locationsServed: ['Quito', 'Cumbayá'],
    });
    expect(p.links).toEqual([
      { kind: 'website', url: 'https://ana.example/' },
      { kind: 'linkedin', url: 'http://linkedin.com/in/ana' },
    ]);
  });

  it('builds the profile link from a template', () => {
    expect(profileHref('/findanagent/{id}', '12')).toBe('/findanagent/12');
    expect(profileHref('https://exp.example/agents?id={id}', 'a b')).toBe('https://exp.example/agents?id=a%20b');
  });
  it("shows her about in the page's language, else in the one she wrote", () => {
    const row = {
      ...base,
      location: null,
      about: 'I sell homes in Quito.',
      about_es: ' Vendo casas en Quito. ',
      languages: null,
      specializations: null,
      certifications: null,
      locations_served: null,
      website: null,
      facebook: null,
      instagram: null,
      linkedin: null,
    };
    expect(toAgentProfile(row, API, 'en').about).toBe('I sell homes in Quito.');
    expect(toAgentProfile(row, API, 'es').about).toBe('Vendo casas en Quito.');
    expect(toAgentProfile({ ...row, about_es: null }, API, 'es').about).toBe('I sell homes in Quito.');
    expect(toAgentProfile({ ...row, about: '  ' }, API, 'en').about).toBe('Vendo casas en Quito.');
  });

  it("names her languages in the page's language, whichever she wrote them in; one the locale files lack, as she wrote it", () => {
    const written = ['English', 'español', 'Kichwa', ' Français ', 'Klingon'];
    expect(languageNames(written, translatorFor(es, 'es'))).toEqual([
      'Inglés',
      'Español',
      'Kichwa',
      ' Français ',
      'Klingon',
    ]);
    expect(languageNames(written, translatorFor(en, 'en'))).toEqual([
      'English',
      'Spanish',
      'Kichwa',
      ' Français ',
      'Klingon',
    ]);
  });
});
