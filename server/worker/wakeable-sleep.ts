/**
 * A sleep that can be cut short: `sleep(ms)` waits up to ms, `wake()` ends the current wait at once (and does
 * nothing when no one is waiting). The background loops sleep when idle and are woken by new work or by stop().
 */
export function wakeableSleep(): { sleep: (ms: number) => Promise<void>; wake: () => void } {
  let wakeUp: (() => void) | null = null;
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wakeUp = null;
          resolve();
        }
        wakeUp = done;
      }),
    wake: () => wakeUp?.(),
  };
}
