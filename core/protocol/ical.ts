/**
 * A visit as a calendar invitation (docs/visits.md): an iCalendar object (RFC 5545) with one event,
 * `METHOD:REQUEST` when a visit is confirmed and `METHOD:CANCEL` when it is cancelled (RFC 5546), in
 * Ecuador's time zone (America/Guayaquil, UTC-5 all year since 1993), the agent as organiser and the
 * visitor as attendee. Lines end in CRLF and are folded at 75 octets; text is escaped as 3.3.11 says.
 */

export interface CalendarPerson {
  name: string;
  email: string;
}

export interface VisitEvent {
  /** REQUEST and CANCEL: an invitation and its cancellation; PUBLISH: an event to add to one's calendar (an open house) */
  method: 'REQUEST' | 'CANCEL' | 'PUBLISH';
  /** stable for the visit across its changes: the same event for every calendar that holds it */
  uid: string;
  /** 0 when confirmed, one more for each change */
  sequence: number;
  start: Date;
  end: Date;
  /** when this version was made */
  stamp: Date;
  summary: string;
  description?: string;
  /** the address, or the video call's link */
  location?: string;
  url?: string;
  /** the agent (an invitation's); none for an event published to all */
  organizer?: CalendarPerson;
  attendee?: CalendarPerson;
}

/** 3.3.11: backslash, semicolon, comma and line breaks escaped in a TEXT value. */
export function icalText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** A parameter value (a CN): quoted, without the characters a quoted value may not hold. */
function paramValue(value: string): string {
  return `"${value
    .replace(/["\u0000-\u001f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()}"`;
}

/** 3.1: a content line folded so that no line is longer than 75 octets (never inside a character). */
export function foldLine(line: string): string {
  const bytes = new TextEncoder();
  const out: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of line) {
    const n = bytes.encode(ch).length;
    // the first line holds 75 octets; each continuation starts with a space, so 74 more
    if (size + n > (out.length ? 74 : 75)) {
      out.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += n;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** 3.3.5: a UTC date-time, 20261128T150000Z. */
function icalUtc(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** A local date-time in Ecuador (UTC-5 all year), 20261128T100000, for TZID=America/Guayaquil. */
function ecuadorLocal(date: Date): string {
  return icalUtc(new Date(date.getTime() - 5 * 3_600_000)).replace(/Z$/, '');
}

const ECUADOR_ZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:America/Guayaquil',
  'BEGIN:STANDARD',
  'DTSTART:19930205T000000',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0500',
  'TZNAME:-05',
  'END:STANDARD',
  'END:VTIMEZONE',
];

const mailto = (p: CalendarPerson) => `mailto:${p.email.trim()}`;

/** The invitation (or its cancellation) as the text of an .ics file. */
export function visitCalendar(e: VisitEvent): string {
  const cancelled = e.method === 'CANCEL';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//eXp Realty Ecuador//Visits//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${e.method}`,
    ...ECUADOR_ZONE,
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `SEQUENCE:${Math.max(0, Math.trunc(e.sequence))}`,
    `DTSTAMP:${icalUtc(e.stamp)}`,
    `DTSTART;TZID=America/Guayaquil:${ecuadorLocal(e.start)}`,
    `DTEND;TZID=America/Guayaquil:${ecuadorLocal(e.end)}`,
    `SUMMARY:${icalText(e.summary)}`,
    ...(e.description ? [`DESCRIPTION:${icalText(e.description)}`] : []),
    ...(e.location ? [`LOCATION:${icalText(e.location)}`] : []),
    ...(e.url ? [`URL:${e.url}`] : []),
    ...(e.organizer ? [`ORGANIZER;CN=${paramValue(e.organizer.name)}:${mailto(e.organizer)}`] : []),
    ...(e.attendee
      ? [
          `ATTENDEE;CN=${paramValue(e.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=${cancelled ? 'DECLINED' : 'ACCEPTED'}:${mailto(e.attendee)}`,
        ]
      : []),
    `STATUS:${cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
