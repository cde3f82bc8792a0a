/**
 * A listing's open houses (docs/visits.md "Open houses"), drawn alike by the detail
 * (widgets/lib/listing/open-houses.tsx, which fetches them) and the listing's own page
 * (server/pages/listing-page.tsx, which has them): each one's day and hours in Ecuador's time,
 * "By appointment" when it says so, its remarks, a livestream's link, and "Add to calendar" (an
 * .ics file of the site). Nothing when there is none. Each side brings its classes.
 */
import { openHouseWhen } from '../protocol/open-houses.ts';
import type { OpenHouse } from '../protocol/open-house-details.ts';
import type { Lang } from '../lang.ts';
import type { Translate } from '../translate.ts';

export interface OpenHousesClasses {
  section?: string;
  heading?: string;
  note?: string;
  list?: string;
  item?: string;
  when?: string;
  remarks?: string;
  links?: string;
  link?: string;
}

export function OpenHousesView({
  openHouses,
  t,
  lang,
  heading: Heading,
  calendarHref,
  classes = {},
  part,
}: {
  openHouses: readonly OpenHouse[];
  t: Translate;
  lang: Lang;
  heading: 'h2' | 'h3';
  /** the "Add to calendar" file of an open house */
  calendarHref: (openHouseId: string) => string;
  classes?: OpenHousesClasses;
  /** the element's part names (none on the server's page) */
  part?: boolean;
}) {
  if (!openHouses.length) return null;
  return (
    <section className={classes.section} aria-labelledby="open-houses-heading" part={part ? 'open-houses' : undefined}>
      <Heading id="open-houses-heading" className={classes.heading}>
        {t('openHouse.heading')}
      </Heading>
      <p className={classes.note}>{t('openHouse.note')}</p>
      <ul className={classes.list}>
        {openHouses.map((o) => {
          const when = openHouseWhen(o, lang);
          return (
            <li key={o.id} className={classes.item} part={part ? 'open-house' : undefined}>
              <span className={classes.when}>
                {when}
                {o.appointment ? ` · ${t('openHouse.appointment')}` : ''}
              </span>
              {o.remarks ? <span className={classes.remarks}>{o.remarks}</span> : null}
              <span className={classes.links}>
                <a
                  className={classes.link}
                  href={calendarHref(o.id)}
                  download={`open-house-${o.id}.ics`}
                  aria-label={t('openHouse.addToCalendarFor', { when })}
                >
                  {t('openHouse.addToCalendar')}
                </a>
                {o.livestream ? (
                  <a className={classes.link} href={o.livestream} target="_blank" rel="noopener noreferrer">
                    {t('openHouse.livestream')}
                  </a>
                ) : null}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
