/**
 * Runs `work` over `items` with at most `lanes` at once (as many model calls as the provider
 * allows), in order of start; the first failure stops the lanes from taking more and is thrown
 * once the calls in flight have ended.
 */
export async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: { error: unknown } | undefined;
  const lane = async () => {
    while (!failed && next < items.length) {
      const item = items[next++];
      try {
        await work(item);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
  if (failed) throw failed.error;
}
