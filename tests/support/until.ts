/**
 * Waits until `probe` answers something truthy and gives it back; a probe that throws has not
 * answered yet. Past `ms` it fails, saying what it waited for (and the probe's last error).
 */
export async function until<T>(
  probe: () => T | Promise<T>,
  ms = 15_000,
  what = 'the condition',
  every = 50,
): Promise<Exclude<T, false | undefined | null | 0 | ''>> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as Exclude<T, false | undefined | null | 0 | ''>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > end)
      throw new Error(
        `timed out waiting for ${what}${last ? ` (last: ${last instanceof Error ? last.message : String(last)})` : ''}`,
      );
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
