import type { Page } from '@playwright/test';

type Recording = Window & { scrollPositions?: number[] };

/**
 * Records every vertical scroll position the window passes through from now on; the returned function reads
 * them, leaving out the position the window is at when the recording starts (a scroll made just before fires
 * its event at the next frame, with that position). A jump to the top then shows as [0]; a glide (CSS smooth
 * scrolling) as the many positions on its way.
 *
 * The reader first lets two frames pass: a page's content can be on screen before the effect that scrolls runs
 * (React runs effects after the paint), and the scroll's event is only dispatched at the frame after the scroll.
 */
export async function recordScrolling(page: Page): Promise<() => Promise<number[]>> {
  const start = await page.evaluate(async () => {
    // Two frames: the event of a scroll made before this is delivered first, and not recorded.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const recording = window as Recording;
    recording.scrollPositions = [];
    window.addEventListener('scroll', () => recording.scrollPositions?.push(window.scrollY));
    return window.scrollY;
  });
  const read = async () => {
    const positions = await page.evaluate(async () => {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return (window as Recording).scrollPositions ?? [];
    });
    return positions.filter((y) => y !== start);
  };
  return read;
}
