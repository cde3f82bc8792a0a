/**
 * The visit's calendar invitation read back by a real iCalendar parser (Mozilla's ical.js, the one
 * Thunderbird uses): the start and end in UTC, the time zone, the organiser and the attendee, the
 * method and status of a confirmation and of its cancellation, text with commas, semicolons,
 * backslashes and line breaks, and lines of at most 75 octets however long and accented the text.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { foldLine, icalText, visitCalendar, type VisitEvent } from './ical.ts';

const VISIT: VisitEvent = {
  method: 'REQUEST',
  uid: 'visit-42@expecuador.example',
  sequence: 0,
  // Saturday 28 November 2026, 10:00 in Quito (UTC-5)
  start: new Date('2026-11-28T15:00:00Z'),
  end: new Date('2026-11-28T16:00:00Z'),
  stamp: new Date('2026-11-26T12:00:00Z'),
  summary: 'Visita: Casa en Cumbayá, 3 dormitorios; jardín',
  description: 'Línea uno\nLínea dos, con coma; y punto y coma \\ y barra',
  location: 'Av. Interoceánica km 12, Cumbayá, Quito',
  url: 'https://expecuador.example/es/properties/42-casa-en-cumbaya',
  organizer: { name: 'María Fernanda Andrade', email: 'maria@expecuador.example' },
  attendee: { name: 'Lucía "Lu" Compradora', email: 'lucia@example.org' },
};

function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vevent = calendar.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return { calendar, vevent, event: new ICAL.Event(vevent) };
}

describe('a visit as an iCalendar invitation (RFC 5545)', () => {
  it('is read by ical.js with its start in UTC, its Ecuador time zone, organiser and attendee', () => {
    const text = visitCalendar(VISIT);
    const { calendar, vevent, event } = parse(text);
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(event.uid).toBe(VISIT.uid);
    expect(vevent.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('America/Guayaquil');
    expect(event.startDate.zone?.tzid).toBe('America/Guayaquil');
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-11-28T15:00:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2026-11-28T16:00:00.000Z');
    expect(`${event.startDate.hour}:${event.startDate.minute}`).toBe('10:0');
    expect(event.summary).toBe(VISIT.summary);
    expect(event.description).toBe(VISIT.description);
    expect(event.location).toBe(VISIT.location);
    expect(vevent.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(vevent.getFirstPropertyValue('sequence')).toBe(0);
    const organizer = vevent.getFirstProperty('organizer');
    expect(organizer?.getFirstValue()).toBe('mailto:maria@expecuador.example');
    expect(organizer?.getParameter('cn')).toBe('María Fernanda Andrade');
    const attendee = vevent.getFirstProperty('attendee');
    expect(attendee?.getFirstValue()).toBe('mailto:lucia@example.org');
    // a quote cannot stand in a quoted parameter: it becomes a space
    expect(attendee?.getParameter('cn')).toBe('Lucía Lu Compradora');
    expect(attendee?.getParameter('partstat')).toBe('ACCEPTED');
  });

  it('cancels the same event with a higher sequence', () => {
    const { calendar, vevent, event } = parse(visitCalendar({ ...VISIT, method: 'CANCEL', sequence: 1 }));
    expect(calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(event.uid).toBe(VISIT.uid);
    expect(vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(vevent.getFirstPropertyValue('sequence')).toBe(1);
  });

  it('ends lines in CRLF and folds them at 75 octets, never inside a character', () => {
    const long = { ...VISIT, description: 'Árbol, ñandú y camión '.repeat(20) };
    const text = visitCalendar(long);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(parse(text).event.description).toBe(long.description);
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
  });

  it('escapes text as 3.3.11 says', () => {
    expect(icalText('a,b;c\\d\ne')).toBe('a\\,b\\;c\\\\d\\ne');
  });
});
