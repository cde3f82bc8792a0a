/**
 * The field people never see or fill and bots that fill every field do (a form that comes back
 * with it filled is dropped as a bot's: core/protocol/inquiry.ts). The inquiry form, the seller's
 * lead and the alert dialog each have one.
 */
export function Honeypot({
  id,
  value,
  onChange,
  label = 'Website',
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  label?: string;
}) {
  return (
    <div className="exp-sr-only" aria-hidden="true">
      <label htmlFor={`${id}-website`}>{label}</label>
      <input
        id={`${id}-website`}
        name="website"
        type="text"
        tabIndex={-1}
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
