import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The phone and desktop widths every screen is checked at. */
export const WIDTHS = [390, 1366] as const;

export interface AxeOptions {
  /**
   * Leaves iframes out: an iframe sandboxed without scripts (a rendered email) cannot run axe, which then
   * waits for it forever.
   */
  readonly skipFrames?: boolean;
}

/** The serious and critical WCAG 2.1 A/AA violations on the page as it is now, one line each. */
async function seriousViolations(page: Page, { skipFrames = false }: AxeOptions): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (skipFrames) builder = builder.setLegacyMode(true).options({ iframes: false });
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

/** axe-core on the page at its current size: no serious or critical violation. */
export async function expectNoSeriousAxeViolations(page: Page, where: string, options: AxeOptions = {}): Promise<void> {
  const serious = await seriousViolations(page, options);
  expect(serious, `${where}\n${serious.join('\n')}`).toEqual([]);
}

export interface BothWidthsOptions extends AxeOptions {
  /** The viewport's height at phone width (844 by default; the admin suites use 900). */
  readonly phoneHeight?: number;
}

/**
 * axe-core at phone and desktop widths on the screen now shown; `ready` waits for its content after each
 * resize. The page is left at 1366 × 900.
 */
export async function axeAtBothWidths(
  page: Page,
  where: string,
  ready?: () => Promise<void>,
  options: BothWidthsOptions = {},
): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? (options.phoneHeight ?? 844) : 900 });
    await ready?.();
    await expectNoSeriousAxeViolations(page, `${where} at ${width}px`, options);
  }
}
