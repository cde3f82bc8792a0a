/**
 * "What's nearby" on a project's page (docs/projects.md "What is near"): the places of interest
 * around it, nearest first, each with its kind and its straight-line distance, read as one line
 * ("Park · Parque La Carolina · 350 m": the separators for a screen reader and a copy, unseen).
 * Nothing when the list is empty (a place the brokerage's list does not cover yet).
 */
import type { Translate } from '../../core/translate.ts';
import { nearbyLine, type NearbyPlace } from '../../core/protocol/nearby.ts';

export function Nearby({
  places,
  t,
  heading: H = 'h3',
}: {
  places: NearbyPlace[];
  t: Translate;
  heading?: 'h2' | 'h3';
}) {
  if (!places.length) return null;
  return (
    <div className="nearby" data-nearby="">
      <H className="nearby__heading">{t('site.nearby.heading')}</H>
      <ul className="nearby__list">
        {places.map((place) => {
          const line = nearbyLine(place, t);
          return (
            <li key={`${place.kind}:${place.name}`} data-nearby-kind={place.kind}>
              <span className="nearby__kind">{line.kind}</span>
              <span className="sr-only"> · </span>
              <span className="nearby__name">{line.name}</span>
              <span className="sr-only"> · </span>
              <span className="nearby__distance">{line.distance}</span>
            </li>
          );
        })}
      </ul>
      <p className="nearby__note">{t('site.nearby.note')}</p>
    </div>
  );
}
