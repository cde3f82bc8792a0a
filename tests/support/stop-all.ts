/**
 * What a suite started, stopped in the order given (the server before its database), each one
 * even when one before it failed; the first failure is thrown once all have had their turn.
 */
export async function stopAll(...steps: Array<() => unknown>): Promise<void> {
  let failure: unknown;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}
