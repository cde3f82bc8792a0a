/** A select's options: each value with its label (the caller translates it). */
export function Options<T extends string>({ values, label }: { values: readonly T[]; label: (value: T) => string }) {
  return (
    <>
      {values.map((value) => (
        <option key={value} value={value}>
          {label(value)}
        </option>
      ))}
    </>
  );
}
