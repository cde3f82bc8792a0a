/**
 * <exp-agent-profile agent-id> (docs/product.md §2; docs/decisions.md #6): the agent's name, a contact card
 * (photo or initials, about, e-mail, phone, languages, website and social links, 'Contact Agent'
 * that opens the inquiry form addressed to this agent and really sends it), the sections, the
 * agent's active listings (cards that open the property detail), and 'Return to Search'. Agent text
 * is data: shown as text, links only when http(s).
 */
import {
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useState,
  type ComponentProps,
  type ReactNode,
} from 'react';
import { languageNames, toAgentProfile, type AgentProfile as Profile } from '../../core/protocol/agent.ts';
import { getAgent } from '../lib/data/agents.ts';
import { getClients } from '../lib/data/client.ts';
import { getListingsCount, getListingsPage } from '../lib/data/listings.ts';
import type { Operation } from '../../core/protocol/filters.ts';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { agentPath } from '../../core/routes.ts';
import { SITE } from '../../core/site.ts';
import { useStructuredData, type Builders } from '../lib/structured-data.ts';
import { emit } from '../lib/events.ts';
import { formatCount } from '../../core/protocol/format.ts';
import { InquiryForm } from '../lib/inquiry/inquiry-form.tsx';
import { AgentAvatar, ContactList } from '../lib/listing/agent-contact.tsx';
import { CardSkeleton, PropertyCard } from '../lib/listing/card.tsx';
import { listingDefaults, mapListing, type Property } from '../../core/protocol/listing.ts';
import { PropertyDialog } from '../lib/listing/lazy-property-dialog.tsx';
import { siteUrl } from '../lib/site-links.ts';
import { Dialog, DialogClose } from '../lib/ui/dialog.tsx';
import { ChevronLeft } from '../lib/ui/icons/chevron-left.tsx';
import { GlobeIcon } from '../lib/ui/icons/globe.tsx';
import type { agentProfileAttributes } from './agent-profile.attributes.ts';

type Props = ElementProps<typeof agentProfileAttributes>;

const SOCIAL_LABEL = {
  website: 'profile.website',
  facebook: 'profile.facebook',
  instagram: 'profile.instagram',
  linkedin: 'profile.linkedin',
} as const;

export function AgentProfile(props: Props) {
  const { agentId, directoryUrl, structuredData } = props;
  const { t, api, host, site, lang } = useElement();
  const [state, setState] = useState<{ status: 'loading' | 'ready' | 'missing' | 'error'; profile: Profile | null }>({
    status: 'loading',
    profile: null,
  });
  const [open, setOpen] = useState<Property | null>(null);
  const [contact, setContact] = useState(false);
  const rest = getClients(api).rest;
  const id = agentId?.trim() ?? '';

  useEffect(() => {
    let live = true;
    setState({ status: 'loading', profile: null });
    if (!id) {
      setState({ status: 'missing', profile: null });
      return;
    }
    getAgent(rest, id)
      .then(
        (row) =>
          live &&
          setState(
            row
              ? { status: 'ready', profile: toAgentProfile(row, api.url, lang) }
              : { status: 'missing', profile: null },
          ),
      )
      .catch((error: unknown) => {
        console.error('[exp-agent-profile] could not load the agent:', error);
        if (live) setState({ status: 'error', profile: null });
      });
    return () => {
      live = false;
    };
  }, [id, rest, api.url, lang]);

  const profile = state.profile;
  const structured = useCallback(
    (b: Builders) => {
      if (!profile) return null;
      const home = new URL(siteUrl('/', site, lang), location.href).href;
      return b.agentJsonLd(profile, new URL(siteUrl(agentPath(profile.id), site, lang), location.href).href, {
        jobTitle: t('agent.jobTitle'),
        brokerage: { name: SITE.name, url: home },
      });
    },
    [profile, site, lang, t],
  );
  useStructuredData(host, structuredData, structured);

  if (state.status === 'loading') {
    // what the page holds (the agent page's server-rendered profile) shows until the profile is read
    return (
      <slot>
        <p className="m-0 py-16 text-center text-ink-muted" role="status">
          {t('common.loading')}
        </p>
      </slot>
    );
  }
  if (state.status !== 'ready' || !state.profile) {
    return (
      <div className="flex flex-col items-center gap-3 py-16 text-center" part="not-found">
        <h2 className="m-0 text-2xl font-bold text-ink">
          {state.status === 'error' ? t('errors.somethingWentWrong') : t('profile.notFound')}
        </h2>
        <a href={directoryUrl} className="text-primary font-semibold hover:underline" part="back-link">
          {t('profile.backToSearch')}
        </a>
      </div>
    );
  }
  const p = state.profile;
  const openProperty = (property: Property) => {
    // a host page may handle the listing itself (follow the link, its own page)
    if (emit(host, 'exp-property-open', { id: property.id, title: property.title }, { cancelable: true }))
      setOpen(property);
  };
  return (
    <article className="flex flex-col gap-8" part="profile" aria-labelledby="exp-agent-name">
      <a
        href={directoryUrl}
        className="inline-flex items-center gap-1 self-start text-primary font-semibold hover:underline"
        part="return-link"
      >
        <ChevronLeft size={18} />
        {t('profile.returnToSearch')}
      </a>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-8 cq-lg:grid-cols-[360px_minmax(0,1fr)] items-start">
        <aside
          className="min-w-0 rounded-brand border border-line bg-surface p-4 cq-xs:p-6 flex flex-col items-center gap-4 text-center shadow-sm break-words"
          part="contact-card"
        >
          <AgentAvatar name={p.name} photo={p.photo} size={160} />
          <div>
            <h1 id="exp-agent-name" className="m-0 text-2xl font-bold text-ink" part="name">
              <span>{p.firstName}</span> <span>{p.lastName}</span>
            </h1>
            {p.location ? <p className="m-0 mt-1 text-ink-muted">{p.location}</p> : null}
          </div>
          <button
            type="button"
            onClick={() => setContact(true)}
            className="w-full rounded-md bg-primary px-4 py-3 font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover"
            part="contact-button"
          >
            {t('profile.contactAgent')}
          </button>
          <ContactList email={p.email} phone={p.phone} className="w-full gap-2 text-left text-[15px]" iconSize={18} />
          {p.links.length ? (
            <ul className="list-none m-0 p-0 flex flex-wrap justify-center gap-2" aria-label={t('profile.links')}>
              {p.links.map((l) => (
                <li key={l.kind}>
                  <a
                    href={l.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-flex items-center gap-1.5 rounded-full border border-line px-3 py-1.5 text-sm text-ink no-underline hover:bg-surface-subtle"
                    part="social-link"
                  >
                    {l.kind === 'website' ? <GlobeIcon size={16} /> : null}
                    {t(SOCIAL_LABEL[l.kind])}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </aside>
        <div className="flex flex-col gap-6 min-w-0 break-words">
          <Section title={t('profile.contact')}>
            {/* (a phone number is not broken across lines) */}
            <p className="m-0">
              {p.email}
              {p.email && p.phone ? ' · ' : null}
              {p.phone ? <span className="whitespace-nowrap">{p.phone}</span> : null}
              {p.email || p.phone ? null : '—'}
            </p>
          </Section>
          {p.about ? (
            <Section title={t('profile.about')}>
              <p className="m-0 whitespace-pre-line leading-relaxed">{p.about}</p>
            </Section>
          ) : null}
          {joined(t('profile.languages'), languageNames(p.languages, t), ', ')}
          {p.specializations.length ? (
            <Section title={t('profile.specializations')}>
              <ul className="list-none m-0 p-0 flex flex-wrap gap-2">
                {p.specializations.map((s) => (
                  <li key={s} className="rounded-full border border-line bg-surface px-3 py-1 text-sm">
                    {s}
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}
          {joined(t('profile.certifications'), p.certifications, ' / ')}
          {joined(t('profile.locationsServed'), p.locationsServed, '; ')}
        </div>
      </div>
      <AgentListings agentId={p.id} name={p.firstName || p.name} operation="sale" onOpen={openProperty} />
      <AgentListings agentId={p.id} name={p.firstName || p.name} operation="rent" onOpen={openProperty} />
      <PropertyDialog property={open} onClose={() => setOpen(null)} settings={props} />
      <ContactDialog profile={p} open={contact} onClose={() => setContact(false)} />
    </article>
  );
}

/** A section of short items written as one line, left out when there are none. */
function joined(title: string, items: string[], separator: string) {
  return items.length ? (
    <Section title={title}>
      <p className="m-0">{items.join(separator)}</p>
    </Section>
  ) : null;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="border-b border-line pb-5">
      <h2 className="m-0 mb-2 text-sm font-semibold uppercase tracking-wide text-ink-muted">{title}</h2>
      <div className="text-ink">{children}</div>
    </section>
  );
}

function ContactDialog({ profile, open, onClose }: { profile: Profile; open: boolean; onClose: () => void }) {
  const { t } = useElement();
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} labelledBy={titleId} className="max-w-[480px]" part="contact-dialog">
      <div className="flex items-center justify-between gap-3 border-b border-line px-5 py-3">
        <h2 id={titleId} className="m-0 text-lg font-bold text-ink">
          {t('profile.contactTitle', { name: profile.name })}
        </h2>
        <DialogClose onClose={onClose} />
      </div>
      <div className="overflow-y-auto p-5">
        <InquiryForm
          target={{
            agentId: profile.id,
            propertyTitle: '',
            propertyAddress: '',
            propertyPrice: '',
            recipientEmail: profile.email,
          }}
          onSent={onClose}
          submitLabel={t('profile.send')}
        />
      </div>
    </Dialog>
  );
}

/**
 * The agent's active listings for sale, or for rent (docs/product.md "Rent and buy"), newest first,
 * 24 at a time; the rentals' section only when the agent has some.
 */
function AgentListings({
  agentId,
  name,
  operation,
  onOpen,
}: {
  agentId: string;
  name: string;
  operation: Operation;
  onOpen: ComponentProps<typeof PropertyCard>['onOpen'];
}) {
  const { t, api } = useElement();
  const rest = getClients(api).rest;
  const [listings, setListings] = useState<{
    total: number;
    rows: Record<string, unknown>[];
    page: number;
    loading: boolean;
  }>({
    total: 0,
    rows: [],
    page: 0,
    loading: true,
  });
  const loadPage = useCallback(
    async (page: number) => {
      setListings((l) => ({ ...l, loading: true }));
      try {
        const filters = { agentId, ...(operation === 'rent' ? { operation } : {}) };
        const [total, rows] = await Promise.all([
          getListingsCount(rest, filters),
          getListingsPage(rest, filters, 'newest', page),
        ]);
        setListings((l) => ({ total, rows: page === 1 ? rows : [...l.rows, ...rows], page, loading: false }));
      } catch (error) {
        console.error("[exp-agent-profile] could not load the agent's listings:", error);
        setListings((l) => ({ ...l, loading: false }));
      }
    },
    [agentId, operation, rest],
  );
  useEffect(() => {
    void loadPage(1);
  }, [loadPage]);
  const defaults = useMemo(() => listingDefaults(t), [t]);
  // the cards render in the background (time-sliced, as the search's do), so 24 of them arriving
  // never hold the page in one long task
  const shown = useDeferredValue(listings);
  const properties = useMemo(
    () => shown.rows.map((r) => mapListing(r, api.url, defaults)),
    [shown.rows, api.url, defaults],
  );
  if (operation === 'rent' && !shown.total) return null;
  return (
    <section
      aria-labelledby={`exp-agent-${operation}`}
      className="flex flex-col gap-4"
      part={operation === 'rent' ? 'rentals' : 'listings'}
    >
      <h2 id={`exp-agent-${operation}`} className="m-0 text-xl font-bold text-ink">
        {shown.loading && !shown.page
          ? t('common.loading')
          : t(operation === 'rent' ? 'profile.rentals' : 'profile.listings', {
              count: shown.total,
              formatted: formatCount(shown.total),
              name,
            })}
      </h2>
      {shown.loading && !shown.rows.length ? (
        <div className="grid grid-cols-1 gap-4 cq-md:grid-cols-2 cq-lg:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <CardSkeleton key={i} />
          ))}
        </div>
      ) : properties.length ? (
        <ul className="list-none m-0 p-0 grid grid-cols-1 gap-4 cq-md:grid-cols-2 cq-lg:grid-cols-3">
          {properties.map((property) => (
            <li key={property.id} className="flex exp-offscreen-card">
              <PropertyCard property={property} onOpen={onOpen} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="m-0 text-ink-muted">{t('profile.noListings')}</p>
      )}
      {shown.rows.length < shown.total ? (
        <button
          type="button"
          disabled={listings.loading}
          onClick={() => void loadPage(listings.page + 1)}
          className="self-center rounded-md border border-line bg-surface px-5 py-2.5 font-semibold text-ink cursor-pointer hover:bg-surface-subtle disabled:opacity-60"
        >
          {listings.loading ? t('common.loading') : t('profile.showMore')}
        </button>
      ) : null}
    </section>
  );
}
