/**
 * <exp-agent-area> (docs/agent-area.md): an agent signs in with a code from her e-mail, then works
 * in tabs: her leads (./leads.tsx), her visits' calendar (./visits.tsx), her visiting hours
 * (./hours.tsx), her profile (./profile.tsx) and her site kit (./site-kit.tsx); the team has its
 * console besides (./team.tsx: the agents, inviting and deactivating, the routing) and gives leads
 * to agents from the leads' list. Row level security decides what she sees.
 */
import type { Session } from '@supabase/auth-js';
import { useEffect, useId, useRef, useState, type ComponentType, type FormEvent, type KeyboardEvent } from 'react';
import { askForCode, authFor, firstRole, signInWithCode, type AreaRole } from '../lib/data/agent-area.ts';
import { getTeamAgents, type TeamAgent } from '../lib/data/agent-team.ts';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { lazyChunk } from '../lib/lazy-chunk.ts';
import { whenIdle } from '../lib/main-thread.ts';
import type { agentAreaAttributes } from './agent-area.attributes.ts';
import { Leads } from './leads.tsx';
import { field, label, link, primary } from './ui.ts';
import { FormField } from '../lib/ui/form-field.tsx';
import { Failed, Loading } from './status.tsx';
import { useLoad } from './use-load.ts';

export function AgentArea({ phoneCountryCode }: ElementProps<typeof agentAreaAttributes>) {
  const { t, api } = useElement();
  const id = useId();
  const [session, setSession] = useState<Session | null | undefined>(undefined);

  useEffect(() => {
    const auth = authFor(api);
    let live = true;
    void auth.getSession().then(({ data }) => live && setSession(data.session));
    const { data } = auth.onAuthStateChange((_event, next) => live && setSession(next));
    return () => {
      live = false;
      data.subscription.unsubscribe();
    };
  }, [api]);

  if (session === undefined)
    return (
      <p className="m-0 text-ink-muted" part="loading">
        {t('agentArea.loading')}
      </p>
    );
  if (!session) return <SignIn id={id} />;
  return <Signed id={id} session={session} phoneCountryCode={phoneCountryCode} />;
}

function SignIn({ id }: { id: string }) {
  const { t, api } = useElement();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string>('');

  const ask = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const sent = await askForCode(api, email.trim());
    setBusy(false);
    if (sent === 'sent') {
      setStep('code');
      setMessage(t('agentArea.codeSent', { email: email.trim() }));
    } else setMessage(t(sent === 'wait' ? 'agentArea.wait' : 'agentArea.failed'));
  };
  const verify = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const result = await signInWithCode(api, email.trim(), code.trim());
    setBusy(false);
    // signed in: the area follows Auth's state change
    if (typeof result === 'string') setMessage(t(result === 'wrong' ? 'agentArea.wrongCode' : 'agentArea.failed'));
  };

  return (
    <section
      className="mx-auto w-full max-w-[420px] flex flex-col gap-4"
      part="sign-in"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="m-0 text-2xl font-bold text-ink">
        {t('agentArea.signInTitle')}
      </h2>
      <p className="m-0 text-ink-muted">{t('agentArea.signInIntro')}</p>
      {step === 'email' ? (
        <form onSubmit={ask} className="flex flex-col gap-3" part="email-form">
          <FormField controlId={`${id}-email`} label={t('agentArea.email')} labelClassName={label}>
            <input
              id={`${id}-email`}
              type="email"
              required
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              className={field}
            />
          </FormField>
          <button type="submit" disabled={busy} className={primary}>
            {t('agentArea.sendCode')}
          </button>
        </form>
      ) : (
        <form onSubmit={verify} className="flex flex-col gap-3" part="code-form">
          <FormField controlId={`${id}-code`} label={t('agentArea.code')} labelClassName={label}>
            <input
              id={`${id}-code`}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
              className={`${field} tracking-[0.3em] text-xl`}
            />
          </FormField>
          <button type="submit" disabled={busy} className={primary}>
            {t('agentArea.signIn')}
          </button>
          <button
            type="button"
            className={link}
            onClick={() => {
              setStep('email');
              setCode('');
              setMessage('');
            }}
          >
            {t('agentArea.otherAddress')}
          </button>
        </form>
      )}
      <p className="m-0 text-ink" role="status" aria-live="polite" part="message">
        {message}
      </p>
    </section>
  );
}

const TABS = ['leads', 'visits', 'listings', 'hours', 'profile', 'kit', 'team'] as const;
type Tab = (typeof TABS)[number];
/** What a tab other than the leads is given. */
interface PartProps {
  id: string;
  session: Session;
  agents: TeamAgent[];
  onAgents: (agents: TeamAgent[]) => void;
}
/**
 * The tabs other than her leads: each its own chunk, fetched once the leads are asked for and the
 * browser is idle, so the page a phone waits for is the leads alone (docs/agent-area.md "Speed").
 */
/** a part's chunk (retried under a new address after a failed download: lib/lazy-chunk.ts), then its component, by its name */
const part = <M extends Record<K, ComponentType<PartProps>>, K extends keyof M>(load: () => Promise<M>, name: K) => {
  const chunk = lazyChunk(load);
  return () => chunk().then((module) => module[name]);
};
const PARTS: Record<Exclude<Tab, 'leads'>, () => Promise<ComponentType<PartProps>>> = {
  visits: part(() => import('./visits.tsx'), 'Visits'),
  listings: part(() => import('./listings.tsx'), 'Listings'),
  hours: part(() => import('./hours.tsx'), 'Hours'),
  profile: part(() => import('./profile.tsx'), 'Profile'),
  kit: part(() => import('./site-kit.tsx'), 'SiteKit'),
  team: part(() => import('./team.tsx'), 'Team'),
};
/** The tabs an agent has; the team's own account has leads and visits; the team has its console besides. */
const tabsFor = (role: AreaRole): Tab[] =>
  TABS.filter((tab) => (tab === 'team' ? role.team : role.agent_id !== null || tab === 'leads' || tab === 'visits'));

/** Signed in: who she is, sign-out, and her tabs (the ARIA tabs pattern: arrows, Home and End move between them). */
function Signed({ id, session, phoneCountryCode }: { id: string; session: Session; phoneCountryCode: string }) {
  const { t, api } = useElement();
  const [tab, setTab] = useState<Tab>('leads');
  const [role, setRole] = useState<AreaRole | null>(null);
  const [agents, setAgents] = useState<TeamAgent[]>([]);
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  // her leads show at once (they do not wait for her role); the other tabs come with it
  const shown = role ? tabsFor(role) : (['leads'] as Tab[]);
  // her other tabs, fetched while she reads her leads
  useEffect(() => {
    if (!role) return;
    return whenIdle(() => {
      for (const name of tabsFor(role)) if (name !== 'leads') PARTS[name]().catch(() => undefined);
    });
  }, [role]);
  useEffect(() => {
    let live = true;
    firstRole(api, session).then(
      async (r) => {
        if (!live) return;
        setRole(r);
        if (r.team) {
          const list = await getTeamAgents(api, session);
          if (live) setAgents(list);
        }
      },
      (error: unknown) => {
        console.error('[exp-agent-area] could not read the role:', error);
        // (her leads still show: row level security decides them)
        if (live) setRole({ agent_id: null, team: false, follow_up_mail: null });
      },
    );
    return () => {
      live = false;
    };
  }, [api, session]);
  const onKey = (e: KeyboardEvent) => {
    const at = shown.indexOf(tab);
    const n = shown.length;
    const to =
      e.key === 'ArrowRight'
        ? (at + 1) % n
        : e.key === 'ArrowLeft'
          ? (at + n - 1) % n
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : -1;
    if (to < 0) return;
    e.preventDefault();
    setTab(shown[to]!);
    tabs.current[to]?.focus();
  };
  return (
    <div className="flex flex-col gap-4" part="area">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="m-0 text-ink-muted [overflow-wrap:anywhere]">
          {t('agentArea.signedInAs', { email: session.user.email ?? '' })}
        </p>
        <button
          type="button"
          className={link}
          onClick={() => void authFor(api).signOut({ scope: 'local' })}
          part="sign-out"
        >
          {t('agentArea.signOut')}
        </button>
      </div>
      <div
        role="tablist"
        aria-label={t('agentArea.tabsLabel')}
        className="flex gap-1 border-b border-line overflow-x-auto"
        onKeyDown={onKey}
        part="tabs"
      >
        {shown.map((name, i) => (
          <button
            key={name}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`${id}-panel-${name}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            className={`h-12 shrink-0 px-4 border-0 border-b-2 bg-transparent font-semibold cursor-pointer ${tab === name ? 'border-primary text-primary' : 'border-transparent text-ink-muted hover:text-ink'}`}
          >
            {t(`agentArea.tab.${name}`)}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel-${tab}`}
        aria-labelledby={`${id}-tab-${tab}`}
        tabIndex={0}
        className="outline-none"
      >
        {tab === 'leads' ? (
          <Leads
            id={id}
            session={session}
            phoneCountryCode={phoneCountryCode}
            team={role?.team ? agents : null}
            morningMail={
              role && role.follow_up_mail !== null
                ? {
                    wanted: role.follow_up_mail,
                    onChange: (wanted) => setRole((r) => r && { ...r, follow_up_mail: wanted }),
                  }
                : null
            }
          />
        ) : (
          <Part key={tab} load={PARTS[tab]} id={id} session={session} agents={agents} onAgents={setAgents} />
        )}
      </div>
    </div>
  );
}

/** A tab loaded on first use (usually already fetched): "Loading..." until it is here, and "Try again" if its download failed. */
function Part({ load, ...props }: PartProps & { load: () => Promise<ComponentType<PartProps>> }) {
  const [loaded, setLoaded] = useState<{ Component: ComponentType<PartProps> } | 'failed' | null>(null);
  const [attempt, setAttempt] = useState(0);
  useLoad(
    load,
    (Component) => setLoaded({ Component }),
    () => setLoaded('failed'),
    'load a tab',
    [load, attempt],
  );
  if (loaded === 'failed')
    return (
      <Failed
        onRetry={() => {
          setLoaded(null);
          setAttempt((n) => n + 1);
        }}
      />
    );
  if (!loaded) return <Loading />;
  return <loaded.Component {...props} />;
}
