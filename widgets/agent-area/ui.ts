/** The agents' area's controls, one look for every tab (docs/agent-area.md). */
export const field =
  'w-full min-w-0 h-12 rounded-md border border-line bg-surface px-4 text-base text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/30';
export const primary =
  'h-12 inline-flex items-center justify-center gap-2 rounded-md bg-primary px-5 font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover disabled:opacity-60';
export const secondary =
  'h-12 inline-flex items-center justify-center gap-2 rounded-md border border-line bg-surface px-4 font-semibold text-ink cursor-pointer hover:border-primary disabled:opacity-60';
export const link = 'p-0 border-0 bg-transparent text-primary font-semibold cursor-pointer hover:underline';
export const card = 'rounded-brand border border-line bg-surface p-4 flex flex-col gap-3';
/** a field's label */
export const label = 'font-semibold text-ink';
/** a select's look (SelectField's label and control classes) */
export const choice = { labelClassName: label, selectClassName: field };
