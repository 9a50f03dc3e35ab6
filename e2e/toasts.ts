import type { Page } from 'playwright-core';

declare global {
  interface Window {
    /** The toast waits that have ended (the text was found on the page first): they stop looking. */
    __toastWaitsDone?: number[];
    /** Every toast shown since the page loaded: its texts (the whole toast, its title, its description). */
    __toasts?: { texts: string[]; seenBy: string[] }[];
    /** Uses up the first recorded toast that says `wanted` and was not used for it yet; false when there is none. */
    __useToast?: (wanted: ToastPattern) => boolean;
  }
}

/** What a toast wait looks for: words (any case, white space collapsed) or a pattern. */
type ToastPattern = { id: number; kind: 'text' | 're'; text: string; flags: string };

/**
 * Init script: keeps what every toast said. A toast stays five seconds; on a loaded machine the step that waits for
 * it can begin after it has gone, and a wait for text that is no longer on the page never ends.
 */
export function recordToasts() {
  const log: { texts: string[]; seenBy: string[] }[] = [];
  window.__toasts = log;
  const known = new WeakSet<Element>();
  const scan = () => {
    for (const item of Array.from(document.querySelectorAll('li[data-swipe-direction]'))) {
      const whole = item.textContent?.trim() ?? '';
      if (known.has(item) || whole === '') continue;
      known.add(item);
      const parts = Array.from(item.querySelectorAll('div')).map((part) => part.textContent?.trim() ?? '');
      log.push({ texts: [whole, ...parts.filter((part) => part !== '')], seenBy: [] });
    }
  };
  new MutationObserver(scan).observe(document, { childList: true, subtree: true, characterData: true });
  window.__useToast = (wanted) => {
    const normalize = (s: string) => s.replace(/\s+/g, ' ').trim();
    const matches = (s: string) =>
      wanted.kind === 'text'
        ? normalize(s).toLowerCase().includes(normalize(wanted.text).toLowerCase())
        : new RegExp(wanted.text, wanted.flags).test(normalize(s));
    const key = `${wanted.kind}:${wanted.text}/${wanted.flags}`;
    const entry = log.find((t) => !t.seenBy.includes(key) && t.texts.some(matches));
    entry?.seenBy.push(key);
    return entry !== undefined;
  };
}

/**
 * Waits for a text a toast shows, or for the text anywhere on the page (some sentences are shown inline). A toast
 * counts once for each text: a second wait for the same sentence needs a second toast.
 */
let waits = 0;

export async function toast(page: Page, text: string | RegExp): Promise<void> {
  const id = ++waits;
  const pattern: ToastPattern =
    typeof text === 'string'
      ? { id, kind: 'text', text, flags: '' }
      : { id, kind: 're', text: text.source, flags: text.flags };
  const onPage = page.getByText(text).first().waitFor();
  const inLog = page.waitForFunction(
    // Ended by the wait on the page: a later toast is left for the next wait.
    (wanted) => window.__toastWaitsDone?.includes(wanted.id) || (window.__useToast?.(wanted) ?? false),
    pattern,
  );
  // When the page showed it first, the toast it saw is used up too, so a later wait for the same words needs a new one.
  const useUp = (wanted: ToastPattern) => {
    (window.__toastWaitsDone ??= []).push(wanted.id);
    window.__useToast?.(wanted);
  };
  // The slower wait ends with the page; its failure after the first succeeded says nothing.
  onPage.catch(() => undefined);
  inLog.catch(() => undefined);
  const first = await Promise.any([onPage.then(() => 'page' as const), inLog.then(() => 'log' as const)]).catch(
    (error: unknown) => {
      throw error instanceof AggregateError ? error.errors[0] : error;
    },
  );
  if (first === 'page') await page.evaluate(useUp, pattern).catch(() => undefined);
  else await page.evaluate((done) => (window.__toastWaitsDone ??= []).push(done), id).catch(() => undefined);
}
