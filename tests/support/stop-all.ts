/**
 * What a suite started, stopped in the order given (the server before its database), each by its
 * own way to stop (close, stop, end or drop, the first it has), each one even when one before it
 * failed; the first failure is thrown once all have had their turn. Missing ones (a start that
 * failed) are passed over.
 */
type Stoppable = { close(): unknown } | { stop(): unknown } | { end(): unknown } | { drop(): unknown };

export async function stopAll(...things: Array<Stoppable | null | undefined>): Promise<void> {
  let failure: unknown;
  for (const thing of things) {
    if (!thing) continue;
    try {
      if ('close' in thing) await thing.close();
      else if ('stop' in thing) await thing.stop();
      else if ('end' in thing) await thing.end();
      else await thing.drop();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}
