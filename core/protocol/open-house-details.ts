/**
 * An open house's details, as the detail and the listing's page show them (docs/visits.md "Open
 * houses"): public.listing_open_houses' rows, where each one's "Add to calendar" file is, and
 * each as schema.org describes it (typed with schema-dts, as core/protocol/structured-data.ts).
 */
import type { Event, WithContext } from 'schema-dts';
import type { Property } from './listing.ts';
import { parseOpenHouses, type OpenHouseTime } from './open-houses.ts';

/** An open house as public.listing_open_houses answers it. */
export interface OpenHouse extends OpenHouseTime {
  id: string;
  remarks: string;
  /** a livestream's https link, '' when none */
  livestream: string;
  appointment: boolean;
}

/** public.listing_open_houses' rows; what cannot be read is left out. */
export function parseOpenHouseRows(rows: unknown): OpenHouse[] {
  if (!Array.isArray(rows)) return [];
  const out: OpenHouse[] = [];
  for (const r of rows as Array<Record<string, unknown>>) {
    const [time] = parseOpenHouses([{ start: r?.starts_at, end: r?.ends_at }]);
    const id = String(r?.id ?? '');
    if (!time || !/^\d{1,15}$/.test(id)) continue;
    const live =
      typeof r.livestream_url === 'string' && /^https:\/\/[^\s"<>]+$/.test(r.livestream_url) ? r.livestream_url : '';
    out.push({
      ...time,
      id,
      remarks: typeof r.remarks === 'string' ? r.remarks.slice(0, 1000) : '',
      livestream: live,
      appointment: r.appointment_required === true,
    });
  }
  return out;
}

/** Where an open house's "Add to calendar" file is, on the site. */
export const openHouseCalendarPath = (listingId: string, openHouseId: string) =>
  `/open-houses/${encodeURIComponent(listingId)}/${encodeURIComponent(openHouseId)}.ics`;

/**
 * An open house as an Event at the listing's place (docs/visits.md "Open houses"): offline, or
 * mixed when it is streamed too. `name` is the page's words ("Open house: <title>").
 */
export function openHouseJsonLd(p: Property, o: OpenHouse, name: string, url: string): WithContext<Event> {
  const address = {
    '@type': 'PostalAddress',
    streetAddress: p.address || undefined,
    addressLocality: p.city || undefined,
    addressRegion: p.state || undefined,
    addressCountry: 'EC',
  } as const;
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name,
    startDate: o.start,
    endDate: o.end,
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: o.livestream
      ? 'https://schema.org/MixedEventAttendanceMode'
      : 'https://schema.org/OfflineEventAttendanceMode',
    location: o.livestream
      ? [
          { '@type': 'Place', name: p.title, address },
          { '@type': 'VirtualLocation', url: o.livestream },
        ]
      : { '@type': 'Place', name: p.title, address },
    description: o.remarks || undefined,
    image: p.images.length ? p.images.slice(0, 3) : undefined,
    url,
    isAccessibleForFree: true,
  } satisfies WithContext<Event>;
}
