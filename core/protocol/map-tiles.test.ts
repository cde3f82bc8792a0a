import { describe, expect, it } from 'vitest';
import { parseTilesCredit, tilesUrlProblem } from './map-tiles.ts';

describe('map tiles', () => {
  it('takes https URL templates with {z}, {x} and {y} as OpenLayers fills them', () => {
    for (const ok of [
      'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      'https://api.maptiler.com/maps/streets-v2/256/{z}/{x}/{y}.png?key=abc123',
      'https://tiles.stadiamaps.com/tiles/alidade_smooth/{z}/{x}/{y}.png?api_key=k',
      'https://{a-c}.tile.thunderforest.com/atlas/{z}/{x}/{y}.png?apikey=k',
      'https://tiles.example.com/{z}/{x}/{-y}.png',
    ])
      expect(tilesUrlProblem(ok), ok).toBeUndefined();
    expect(tilesUrlProblem('http://tiles.example.com/{z}/{x}/{y}.png')).toMatch(/https/);
    expect(tilesUrlProblem('https://tiles.example.com/tiles.png')).toMatch(/\{z\}, \{x\} and \{y\}/);
    expect(tilesUrlProblem('tiles.example.com/{z}/{x}/{y}.png')).toMatch(/https URL template/);
    expect(tilesUrlProblem('https://{s}.tile.example.com/{z}/{x}/{y}.png')).toMatch(/\{s\}.*\{a-c\}/);
    expect(tilesUrlProblem('https://tiles.example.com/{z}/{x}/{y}{r}.png?key={apikey}')).toMatch(/\{r\}, \{apikey\}/);
  });

  it("reads a provider's credit as text and http(s) links, and refuses any other markup", () => {
    expect(
      parseTilesCredit(
        '&copy; <a href="https://www.maptiler.com/copyright/" target="_blank">MapTiler</a> &copy; <a href=\'https://www.openstreetmap.org/copyright\'>OpenStreetMap</a> contributors',
      ),
    ).toEqual([
      '© ',
      { text: 'MapTiler', href: 'https://www.maptiler.com/copyright/' },
      ' © ',
      { text: 'OpenStreetMap', href: 'https://www.openstreetmap.org/copyright' },
      ' contributors',
    ]);
    expect(parseTilesCredit('Tiles &#169; Example Maps &amp; friends')).toEqual(['Tiles © Example Maps & friends']);
    for (const bad of [
      '<script>alert(1)</script>',
      '<a href="javascript:alert(1)">x</a>',
      '<img src=x onerror=alert(1)>',
      '<a href="https://x.example"><b>X</b></a>',
      '',
      '   ',
      '<a href="https://x.example"></a>',
    ])
      expect(parseTilesCredit(bad), bad).toBeUndefined();
  });
});
