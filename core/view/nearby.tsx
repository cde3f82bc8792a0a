/**
 * "What's nearby" (docs/projects.md "What is near"): the places of interest around a project or a
 * listing, nearest first, each with its kind and its straight-line distance, read as one line
 * ("Park · Parque La Carolina · 350 m": the separators for a screen reader and a copy, unseen).
 * Drawn alike by the server's pages (which have the list) and the listing's detail
 * (widgets/lib/listing/nearby.tsx, which asks for it); each side brings its classes. Nothing when
 * the list is empty (a place the brokerage's list does not cover yet).
 */
import type { Translate } from '../translate.ts';
import { nearbyLine, type NearbyPlace } from '../protocol/nearby.ts';

export interface NearbyClasses {
  section?: string;
  heading?: string;
  list?: string;
  item?: string;
  kind?: string;
  name?: string;
  distance?: string;
  note?: string;
  /** what only a screen reader and a copy read */
  unseen: string;
}

export function NearbyView({
  places,
  t,
  heading: H = 'h3',
  classes,
}: {
  places: readonly NearbyPlace[];
  t: Translate;
  heading?: 'h2' | 'h3';
  classes: NearbyClasses;
}) {
  if (!places.length) return null;
  return (
    <div className={classes.section} data-nearby="">
      <H className={classes.heading}>{t('nearby.heading')}</H>
      <ul className={classes.list}>
        {places.map((place) => {
          const line = nearbyLine(place, t);
          return (
            <li key={`${place.kind}:${place.name}`} className={classes.item} data-nearby-kind={place.kind}>
              <span className={classes.kind}>{line.kind}</span>
              <span className={classes.unseen}> · </span>
              <span className={classes.name}>{line.name}</span>
              <span className={classes.unseen}> · </span>
              <span className={classes.distance}>{line.distance}</span>
            </li>
          );
        })}
      </ul>
      <p className={classes.note}>{t('nearby.note')}</p>
    </div>
  );
}
