/** A choice of a select: its value, and its label (the caller translates it). */
export interface SelectOption {
  value: string;
  label: string;
}

/** A select's options. */
export function Options({ options }: { options: readonly SelectOption[] }) {
  return (
    <>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </>
  );
}
