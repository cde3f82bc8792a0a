/**
 * What the agents' area says while something is on its way, and when it could not be read
 * (docs/agent-area.md): the same words, roles and "Try again" on every tab.
 */
import { useElement } from '../lib/element.tsx';
import { link } from './ui.ts';

/** "Loading..." (a polite status: a screen reader hears when it is replaced). */
export function Loading({ part }: { part?: string }) {
  const { t } = useElement();
  return (
    <p className="m-0 text-ink-muted" role="status" part={part}>
      {t('agentArea.loading')}
    </p>
  );
}

/** That it could not be read, with "Try again" (an alert: it is news). */
export function Failed({ onRetry, part }: { onRetry: () => void; part?: string }) {
  const { t } = useElement();
  return (
    <p className="m-0 flex flex-wrap items-center gap-3 text-ink" role="alert" part={part}>
      {t('agentArea.failed')}
      <button type="button" className={link} onClick={onRetry}>
        {t('common.tryAgain')}
      </button>
    </p>
  );
}

/**
 * The line above one of her lists (her leads, her visits, her listings): that it could not be read,
 * else how many (`counted`, once it is here), else "Loading...". A failure is said even before
 * anything came: the list would otherwise say "Loading..." for ever.
 */
export function ListStatus({
  counted,
  failed,
  part,
  onRetry,
}: {
  counted: string | null;
  failed: boolean;
  part: string;
  onRetry: () => void;
}) {
  const { t } = useElement();
  if (failed) return <Failed onRetry={onRetry} part={part} />;
  return (
    <p className="m-0 text-ink" role="status" aria-live="polite" part={part}>
      {counted ?? t('agentArea.loading')}
    </p>
  );
}
