/**
 * Her profile (docs/agent-area.md "Profile"): her photo (uploaded to our server, which makes its
 * sizes), her about in English and Spanish, languages, specializations, certifications, phone and
 * links, and the places she serves (picked from our places: they route every seller's lead), saved
 * in one call (public.update_my_profile), each field checked by the database; a preview of what the
 * public sees, and a link to her public page.
 */
import texts from 'virtual:exp-texts/lazy/agent-area/profile';
import type { Session } from '@supabase/auth-js';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { safeMediaUrl } from '../../core/protocol/safe-urls.ts';
import { agentPath } from '../../core/routes.ts';
import { getClients } from '../lib/data/client.ts';
import { getMyProfile, updateMyProfile, uploadMyPhoto, type MyProfile } from '../lib/data/agent-area.ts';
import { getPlaceSuggestions, type PlaceSuggestion } from '../lib/data/places.ts';
import { useElement } from '../lib/element.tsx';
import { card, field, label, link, primary, secondary } from './ui.ts';
import { FormField } from '../lib/ui/form-field.tsx';
import { addTexts } from '../lib/i18n.ts';
import { saveWith, useLoad } from './use-load.ts';

await addTexts(texts);

const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
const LINKS = ['website', 'facebook', 'instagram', 'linkedin'] as const;
const LISTS = ['languages', 'specializations', 'certifications'] as const;
/** A list as she types it: comma-separated. */
const toList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

type Form = Record<'about' | 'about_es' | 'phone' | (typeof LINKS)[number] | (typeof LISTS)[number], string>;
const formOf = (p: MyProfile): Form => ({
  about: p.about ?? '',
  about_es: p.about_es ?? '',
  phone: p.phone ?? '',
  website: p.website ?? '',
  facebook: p.facebook ?? '',
  instagram: p.instagram ?? '',
  linkedin: p.linkedin ?? '',
  languages: (p.languages ?? []).join(', '),
  specializations: (p.specializations ?? []).join(', '),
  certifications: (p.certifications ?? []).join(', '),
});

export function Profile({ id, session }: { id: string; session: Session }) {
  const { t, api, lang } = useElement();
  const [profile, setProfile] = useState<MyProfile | null | undefined>(undefined);
  const [form, setForm] = useState<Form | null>(null);
  const [places, setPlaces] = useState<Array<{ name: string; path: string | null }>>([]);
  /** the locale key of what the last load, save or upload came to */
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  const show = (p: MyProfile | null) => {
    setProfile(p);
    if (p) {
      setForm(formOf(p));
      setPlaces(p.places);
    }
  };
  useLoad(
    () => getMyProfile(api, session),
    show,
    () => setMessage('agentArea.failed'),
    'load the profile',
    [api, session],
  );

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!form) return;
    // a place kept from before that is none of ours: she removes it first
    if (places.some((p) => !p.path)) return setMessage('agentArea.profile.refused.places');
    return saveWith(
      () =>
        updateMyProfile(api, session, {
          about: form.about,
          about_es: form.about_es,
          phone: form.phone,
          website: form.website,
          facebook: form.facebook,
          instagram: form.instagram,
          linkedin: form.linkedin,
          languages: toList(form.languages),
          specializations: toList(form.specializations),
          certifications: toList(form.certifications),
          places: places.map((p) => p.path).filter((p): p is string => Boolean(p)),
        }),
      {
        busy: setBusy,
        message: setMessage,
        refusals: 'agentArea.profile.refused',
        saved: 'agentArea.profile.saved',
        what: 'the profile',
      },
      show,
    );
  };
  const upload = async (file: File | undefined) => {
    if (!file || !profile) return;
    if (file.size > PHOTO_MAX_BYTES) return setMessage('agentArea.profile.photoRefused.too_large');
    return saveWith(
      () => uploadMyPhoto(session, file),
      {
        busy: setBusy,
        message: setMessage,
        start: 'agentArea.profile.uploading',
        refusals: 'agentArea.profile.photoRefused',
        saved: 'agentArea.profile.photoSaved',
        what: 'the photo',
      },
      (answer) => setProfile({ ...profile, picture: answer.picture }),
    );
  };

  if (!profile || !form)
    return profile === null ? (
      <p className="m-0 text-ink">{t('agentArea.profile.notAnAgent')}</p>
    ) : (
      <p className="m-0 text-ink" role="status">
        {t(message || 'agentArea.loading')}
      </p>
    );
  const text = (name: keyof Form, multiline = false, type = 'text') => (
    <label className="flex flex-col gap-1 font-semibold text-ink">
      {t(`agentArea.profile.field.${name}`)}
      {multiline ? (
        <textarea
          rows={5}
          maxLength={2000}
          value={form[name]}
          onChange={(e) => setForm({ ...form, [name]: e.target.value })}
          className={`${field} h-auto py-2 font-normal`}
        />
      ) : (
        <input
          type={type}
          value={form[name]}
          onChange={(e) => setForm({ ...form, [name]: e.target.value })}
          className={`${field} font-normal`}
        />
      )}
    </label>
  );
  const photo = safeMediaUrl(profile.picture ?? '', api.url) ?? null;
  const name = [profile.first_name, profile.last_name].filter(Boolean).join(' ');

  return (
    <div className="flex flex-col gap-6">
      <form className="flex flex-col gap-4" onSubmit={save} part="profile" aria-labelledby={`${id}-profile`}>
        <h2 id={`${id}-profile`} className="m-0 text-2xl font-bold text-ink">
          {t('agentArea.profile.title')}
        </h2>
        <div className={card} part="photo">
          <div className="flex items-center gap-4">
            {photo ? (
              <img
                src={photo}
                alt={t('agentArea.profile.photoAlt', { name })}
                width={96}
                height={96}
                className="size-24 rounded-full object-cover bg-surface-muted"
              />
            ) : (
              <span className="size-24 rounded-full bg-surface-muted grid place-items-center text-ink-muted">
                {t('agentArea.profile.noPhoto')}
              </span>
            )}
            <label className="flex flex-col gap-1 font-semibold text-ink min-w-0">
              {t('agentArea.profile.photo')}
              <input
                type="file"
                accept="image/jpeg,image/png,image/webp,image/heic,image/avif"
                disabled={busy}
                onChange={(e) => void upload(e.target.files?.[0])}
                className="max-w-full text-sm font-normal"
              />
            </label>
          </div>
          <p className="m-0 text-sm text-ink-muted">{t('agentArea.profile.photoHint')}</p>
        </div>
        {text('about', true)}
        {text('about_es', true)}
        {LISTS.map((l) => (
          <div key={l}>{text(l)}</div>
        ))}
        <p className="m-0 -mt-3 text-sm text-ink-muted">{t('agentArea.profile.listHint')}</p>
        {text('phone', false, 'tel')}
        {LINKS.map((l) => (
          <div key={l}>{text(l, false, 'url')}</div>
        ))}
        <Places places={places} onChange={setPlaces} />
        <button type="submit" className={primary} disabled={busy}>
          {t('agentArea.profile.save')}
        </button>
        <p className="m-0 text-ink" role="status" aria-live="polite" part="profile-message">
          {message ? t(message) : ''}
        </p>
      </form>
      <section className={card} aria-labelledby={`${id}-preview`} part="preview">
        <h3 id={`${id}-preview`} className="m-0 text-lg font-semibold text-ink">
          {t('agentArea.profile.preview')}
        </h3>
        <div className="flex items-center gap-3">
          {photo ? (
            <img src={photo} alt="" width={64} height={64} className="size-16 rounded-full object-cover" />
          ) : null}
          <p className="m-0 text-lg font-semibold text-ink">{name}</p>
        </div>
        {(['en', 'es'] as const).map((l) => {
          const about = (l === 'es' ? profile.about_es || profile.about : profile.about || profile.about_es) ?? '';
          return (
            <div key={l} lang={l}>
              <p className="m-0 text-sm font-semibold text-ink-muted">{t(`agentArea.profile.previewIn.${l}`)}</p>
              <p className="m-0 text-ink whitespace-pre-line">{about || t('agentArea.profile.noAbout')}</p>
            </div>
          );
        })}
        {profile.places.length ? (
          <p className="m-0 text-ink">
            {t('agentArea.profile.serves', { places: profile.places.map((p) => p.name).join(', ') })}
          </p>
        ) : null}
        <a className={link} href={agentPath(profile.id, lang)} target="_blank" rel="noopener">
          {t('agentArea.profile.openPublic')}
        </a>
      </section>
    </div>
  );
}

/** The places she serves: chips, and a box that suggests our places as she types (public.place_suggestions). */
function Places({
  places,
  onChange,
}: {
  places: Array<{ name: string; path: string | null }>;
  onChange: (next: Array<{ name: string; path: string | null }>) => void;
}) {
  const { t, api } = useElement();
  const id = useId();
  const [q, setQ] = useState('');
  const [found, setFound] = useState<PlaceSuggestion[]>([]);
  const rest = useMemo(() => getClients(api).rest, [api]);
  useEffect(() => {
    if (q.trim().length < 2) {
      setFound([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getPlaceSuggestions(rest, q.trim(), controller.signal).then(
        (s) => setFound(s.filter((p) => p.kind !== 'listing').slice(0, 6)),
        () => {},
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q, rest]);
  const place = (p: PlaceSuggestion) =>
    [p.name, p.kind === 'sector' ? p.city : p.kind === 'city' ? p.province : null].filter(Boolean).join(', ');

  return (
    <fieldset className={`${card} m-0`} part="places">
      <legend className="px-1 font-semibold text-ink">{t('agentArea.profile.places')}</legend>
      <p className="m-0 text-sm text-ink-muted">{t('agentArea.profile.placesHint')}</p>
      {places.length ? (
        <ul className="list-none m-0 p-0 flex flex-wrap gap-2">
          {places.map((p) => (
            <li
              key={p.path ?? p.name}
              className="inline-flex items-center gap-1 rounded-full border border-line pl-3 pr-1 text-ink"
            >
              {p.name}
              <button
                type="button"
                className={`${link} h-10 px-2`}
                onClick={() => onChange(places.filter((x) => x !== p))}
                aria-label={t('agentArea.profile.removePlace', { place: p.name })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="m-0 text-ink-muted">{t('agentArea.profile.noPlaces')}</p>
      )}
      <FormField controlId={`${id}-place`} label={t('agentArea.profile.addPlace')} labelClassName={label}>
        <input
          id={`${id}-place`}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          className={field}
          autoComplete="off"
          aria-describedby={`${id}-found`}
        />
      </FormField>
      <ul id={`${id}-found`} className="list-none m-0 p-0 flex flex-col gap-1" aria-live="polite">
        {found.map((p) => (
          <li key={p.path}>
            <button
              type="button"
              className={`${secondary} w-full justify-start text-left`}
              disabled={places.some((x) => x.path === p.path)}
              onClick={() => {
                onChange([...places, { name: p.name, path: p.path }]);
                setQ('');
              }}
            >
              {place(p)}
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
