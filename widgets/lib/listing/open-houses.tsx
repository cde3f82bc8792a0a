/**
 * A listing's open houses in its detail (docs/visits.md "Open houses"), drawn by
 * core/view/open-houses.tsx as the listing's page draws them: asked for only when the listing's
 * row says it has some still to come; "Add to calendar" is the site's .ics file of each.
 */
import { useEffect, useState } from 'react';
import { upcomingOpenHouses } from '../../../core/protocol/open-houses.ts';
import { openHouseCalendarPath, type OpenHouse } from '../../../core/protocol/open-house-details.ts';
import type { Property } from '../../../core/protocol/listing.ts';
import { OpenHousesView, type OpenHousesClasses } from '../../../core/view/open-houses.tsx';
import { getClients } from '../data/client.ts';
import { getOpenHouses } from '../data/listing-extras.ts';
import { useElement } from '../element.tsx';
import { siteUrl } from '../site-links.ts';

export function OpenHouses({ property: p, headingLevel }: { property: Property; headingLevel: 'h2' | 'h3' }) {
  const { t, api, lang, site } = useElement();
  const some = upcomingOpenHouses(p.openHouses).length > 0;
  const [state, setState] = useState<{ id: string; list: OpenHouse[] }>({ id: p.id, list: [] });
  useEffect(() => {
    if (!some) return;
    const controller = new AbortController();
    getOpenHouses(getClients(api).rest, p.id, controller.signal)
      .then((list) => setState({ id: p.id, list }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn('[exp] the open houses could not be loaded:', error);
      });
    return () => controller.abort();
  }, [api, p.id, some]);
  if (!some || state.id !== p.id) return null;
  return (
    <OpenHousesView
      openHouses={state.list}
      t={t}
      lang={lang}
      heading={headingLevel}
      calendarHref={(id) => siteUrl(openHouseCalendarPath(p.id, id), site, lang)}
      classes={CLASSES}
      part
    />
  );
}

const CLASSES: OpenHousesClasses = {
  section: 'flex flex-col gap-2',
  heading: 'm-0 text-base font-semibold text-ink',
  note: 'm-0 text-sm text-ink-muted',
  list: 'm-0 p-0 list-none flex flex-col gap-2',
  item: 'flex flex-wrap items-baseline gap-x-3 gap-y-1 rounded-md border border-line px-3 py-2',
  when: 'font-semibold text-ink',
  remarks: 'basis-full text-sm text-ink-muted',
  links: 'flex gap-3 text-sm',
  link: 'font-semibold text-primary hover:underline',
};
