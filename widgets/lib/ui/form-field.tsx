/**
 * A form's field: its label, its control and its error under it (the error's id is the control's
 * with `-error`, which the control names in aria-describedby). The inquiry form, the seller's lead
 * and the valuation's facts all draw their fields with it.
 */
import type { ReactNode } from 'react';

export function FormField({
  controlId,
  label,
  error,
  className = '',
  labelClassName = 'text-sm font-medium text-ink',
  children,
}: {
  controlId: string;
  label: ReactNode;
  /** the error's text, already translated; none when the field is right */
  error?: string | undefined;
  className?: string;
  labelClassName?: string;
  children: ReactNode;
}) {
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={controlId} className={labelClassName}>
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${controlId}-error`} className="m-0 text-sm text-danger" part="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
