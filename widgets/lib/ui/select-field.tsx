/**
 * A labelled select (FormField's label above it) of options given as values and labels, already
 * translated: the one the product's forms draw theirs with (the search's filter bar and "More
 * filters", the seller's timeline, the agents' area).
 */
import { FormField } from './form-field.tsx';
import { Options, type SelectOption } from './options.tsx';

export function SelectField({
  id,
  label,
  value,
  options,
  onChange,
  className,
  labelClassName,
  selectClassName,
  name,
  part,
  required,
}: {
  id: string;
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  /** the field's (its label and select together) */
  className?: string;
  labelClassName?: string;
  selectClassName: string;
  name?: string;
  part?: string;
  required?: boolean;
}) {
  return (
    <FormField controlId={id} label={label} className={className} labelClassName={labelClassName}>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={selectClassName}
        part={part}
        required={required}
      >
        <Options options={options} />
      </select>
    </FormField>
  );
}
