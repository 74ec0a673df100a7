import type { Page } from '@playwright/test';

type Recording = Window & { scrollPositions?: number[] };

/**
 * Records every vertical scroll position the window passes through from now on; the returned function reads
 * them. A jump shows one position, a glide (CSS smooth scrolling) the many on its way.
 */
export async function recordScrolling(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const recording = window as Recording;
    recording.scrollPositions = [];
    window.addEventListener('scroll', () => recording.scrollPositions?.push(window.scrollY));
  });
  return () => page.evaluate(() => (window as Recording).scrollPositions ?? []);
}
