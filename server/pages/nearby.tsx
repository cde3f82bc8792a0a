/** "What's nearby" on a project's or a listing's page (core/view/nearby.tsx), in the site's classes (site/site.css). */
import type { Translate } from '../../core/translate.ts';
import type { NearbyPlace } from '../../core/protocol/nearby.ts';
import { NearbyView, type NearbyClasses } from '../../core/view/nearby.tsx';

const PAGE: NearbyClasses = {
  section: 'nearby',
  heading: 'nearby__heading',
  list: 'nearby__list',
  kind: 'nearby__kind',
  name: 'nearby__name',
  distance: 'nearby__distance',
  note: 'nearby__note',
  unseen: 'sr-only',
};

export function Nearby({ places, t }: { places: NearbyPlace[]; t: Translate }) {
  return <NearbyView places={places} t={t} classes={PAGE} />;
}
