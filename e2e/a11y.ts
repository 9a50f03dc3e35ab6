import axe from 'axe-core';
import type { Page } from 'playwright-core';

declare global {
  interface Window {
    axe?: typeof axe;
  }
}

/** One element that sticks out of the viewport or is cut by its container, as the page described it. */
interface Offender {
  selector: string;
  /** How it offends, in words: "right edge at 612 px", "cut by its container". */
  problem: string;
  width: number;
}

interface OverflowReport {
  scrollWidth: number;
  clientWidth: number;
  /** Elements reaching past the viewport's right edge, widest first. */
  beyond: Offender[];
  /** Content no one can reach: boxes clipped by an `overflow: hidden` container, headings cut short. */
  cut: Offender[];
}

/** Runs in the page: measures horizontal overflow (no closures: Playwright serializes this function). */
function measureOverflow(): OverflowReport {
  const root = document.scrollingElement ?? document.documentElement;
  const limit = root.clientWidth + 1;

  const describe = (element: Element): string => {
    const parts: string[] = [];
    for (let node: Element | null = element; node && node !== document.body && parts.length < 4;) {
      const id = node.id ? `#${node.id}` : '';
      const classes = Array.from(node.classList)
        .slice(0, 3)
        .map((c) => `.${CSS.escape(c)}`)
        .join('');
      const label = node.getAttribute('aria-label');
      parts.unshift(`${node.tagName.toLowerCase()}${id}${classes}${label ? `[aria-label="${label}"]` : ''}`);
      if (node.id) break;
      node = node.parentElement;
    }
    const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `${parts.join(' > ')}${text ? ` ("${text}")` : ''}`;
  };

  // Screen-reader-only text is a 1 px clipped box by design.
  const hiddenByDesign = (element: Element, style: CSSStyleDeclaration, rect: DOMRect): boolean =>
    rect.width <= 1 ||
    rect.height <= 1 ||
    style.visibility === 'hidden' ||
    (style.clip !== 'auto' && style.clip !== '') ||
    style.clipPath !== 'none' ||
    element.closest('[aria-hidden="true"], [inert]') !== null;

  // Sideways scrolling someone asked for (a table wrapper, a tab strip) is declared on the x axis; a column that was
  // only meant to scroll vertically (overflow-y: auto turns overflow-x to auto too) must not scroll sideways.
  const scrollsSidewaysOnPurpose = (element: Element): boolean =>
    /(^|\s)overflow-(x-)?(auto|scroll)(\s|$)/.test(element.getAttribute('class') ?? '') ||
    (element instanceof HTMLElement && /auto|scroll/.test(element.style.overflowX || element.style.overflow));

  const beyond: Offender[] = [];
  const cut: Offender[] = [];
  const beyondElements: Array<[Offender, Element]> = [];
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    const rect = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (hiddenByDesign(element, style, rect)) continue;
    const right = rect.right + window.scrollX;
    if (right > limit) {
      const offender = {
        selector: describe(element),
        problem: `right edge at ${Math.round(right)} px`,
        width: rect.width,
      };
      beyond.push(offender);
      beyondElements.push([offender, element]);
      // Past the viewport inside a container that hides overflow (and ends within the viewport): never reachable.
      let container = element.parentElement;
      while (container && container !== document.body && getComputedStyle(container).overflowX === 'visible') {
        container = container.parentElement;
      }
      if (container && container !== document.body) {
        const overflowX = getComputedStyle(container).overflowX;
        if ((overflowX === 'hidden' || overflowX === 'clip') && container.getBoundingClientRect().right <= limit) {
          const clipped = {
            selector: describe(element),
            problem: 'cut off by a container that hides overflow',
            width: rect.width,
          };
          cut.push(clipped);
          beyondElements.push([clipped, element]);
        }
      }
    }
    if (
      (style.overflowX === 'auto' || style.overflowX === 'scroll') &&
      element.scrollWidth > element.clientWidth + 1 &&
      !scrollsSidewaysOnPurpose(element)
    ) {
      cut.push({
        selector: describe(element),
        problem: `scrolls sideways (${element.scrollWidth} px of content in ${element.clientWidth} px) though only vertical scrolling was set`,
        width: rect.width,
      });
    }
    // A heading must be read whole: one cut short (ellipsis or clipped) at this width is a layout fault.
    if (/^H[1-3]$/.test(element.tagName) && element.scrollWidth > element.clientWidth + 1) {
      cut.push({ selector: describe(element), problem: 'heading text cut short', width: rect.width });
    }
  }
  // The innermost offenders first (what a reader sees cut; their ancestors only carry it), then the widest.
  const elements = new Map<Offender, Element>(beyondElements);
  const hasOffendingDescendant = (offender: Offender): number => {
    const element = elements.get(offender);
    return element && beyondElements.some(([, other]) => other !== element && element.contains(other)) ? 1 : 0;
  };
  for (const list of [beyond, cut])
    list.sort((a, b) => hasOffendingDescendant(a) - hasOffendingDescendant(b) || b.width - a.width);
  return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, beyond, cut };
}

const list = (offenders: Offender[]) =>
  offenders
    .slice(0, 6)
    .map((o) => `  - ${o.selector}: ${o.problem} (${Math.round(o.width)} px wide)`)
    .join('\n');

/**
 * Fails when the page scrolls sideways (document.scrollingElement.scrollWidth > clientWidth + 1), naming the widest
 * elements that stick out, and when content is cut off where no scrolling reaches it (a box clipped by an
 * `overflow: hidden` container, a heading cut short): the shell's own overflow would otherwise hide both.
 */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const report = await page.evaluate(measureOverflow);
  const problems: string[] = [];
  if (report.scrollWidth > report.clientWidth + 1) {
    problems.push(
      `the page scrolls sideways: scrollWidth ${report.scrollWidth} > clientWidth ${report.clientWidth}; widest elements past the edge:\n${list(report.beyond)}`,
    );
  }
  if (report.cut.length > 0) problems.push(`content is cut off:\n${list(report.cut)}`);
  if (problems.length > 0) throw new Error(`Horizontal overflow on ${page.url()}: ${problems.join('\n')}`);
}

/** What axe.run accepts as its context, limited to what crosses into the page: selectors. */
export type AxeContext = string | string[] | { include?: string[]; exclude?: string[] };

interface Violation {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, so the app's CSP does not block it) and fails
 * on any serious or critical violation, listing rule id, impact and target selectors. `context` narrows the run
 * (e.g. to an open dialog), as axe.run's first argument does.
 */
export async function expectNoSeriousAxeViolations(page: Page, context?: AxeContext): Promise<void> {
  let serious = await seriousAxeViolations(page, context);
  // A toast that opens, or starts to fade out, while axe runs (a run on a busy machine takes seconds) is half
  // transparent for a moment: only what is still wrong once the page settles again counts.
  if (serious.length > 0) serious = await seriousAxeViolations(page, context);
  if (serious.length > 0) {
    const lines = serious.map(
      (v: Violation) =>
        `  - ${v.id} (${v.impact ?? 'unknown'}): ${v.help}\n      ${v.targets.slice(0, 8).join('\n      ')}`,
    );
    throw new Error(`Accessibility violations on ${page.url()}:\n${lines.join('\n')}`);
  }
}

async function seriousAxeViolations(page: Page, context?: AxeContext): Promise<Violation[]> {
  // Colours are judged as they settle: a toast or dialog fading in is half transparent, which is not a contrast fault.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  const loaded = await page.evaluate(() => typeof window.axe !== 'undefined');
  if (!loaded) await page.evaluate(axe.source);
  const violations = await page.evaluate(async (ctx) => {
    const engine = window.axe;
    if (!engine) throw new Error('axe-core did not load into the page');
    const results = await engine.run((ctx ?? document) as Parameters<typeof engine.run>[0], {
      resultTypes: ['violations'],
    });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.map(String).join(' ')),
    }));
  }, context);
  return violations.filter((v: Violation) => v.impact === 'serious' || v.impact === 'critical');
}
