// Checks of WCAG 1.4.10 (reflow), 1.4.12 (text spacing), 2.4.7 / 2.4.11 (focus visible, not obscured), reduced
// motion and forced colors, measured in the browser on the page as it is now.
import { expect, type Page } from '@playwright/test';

/** 1280 CSS px at 400 % zoom: the 320 px wide (and 256 px high) viewport WCAG 1.4.10 asks content to fit. */
export const ZOOMED_400 = { width: 320, height: 256 } as const;

/** WCAG 1.4.12's text spacing (the W3C bookmarklet's rules): every element, overriding the site's own styles. */
export const TEXT_SPACING_CSS = `
*, *::before, *::after {
  line-height: 1.5 !important;
  letter-spacing: 0.12em !important;
  word-spacing: 0.16em !important;
}
p { margin-bottom: 2em !important; }
`;

/**
 * The page's horizontal overflow: the document's scrollWidth and clientWidth and, when it scrolls sideways, the
 * elements reaching past the right edge that are not inside a scroll container of their own.
 */
export async function horizontalOverflow(page: Page): Promise<{ scrollWidth: number; clientWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const describe = (el: Element): string =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    const root = document.documentElement;
    const { scrollWidth, clientWidth } = root;
    const culprits: string[] = [];
    if (scrollWidth > clientWidth) {
      for (const el of Array.from(document.body.querySelectorAll('*'))) {
        const rect = el.getBoundingClientRect();
        if (rect.right <= clientWidth + 0.5 || (rect.width === 0 && rect.height === 0)) continue;
        let scroller = el.parentElement;
        while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
        if (scroller && scroller.getBoundingClientRect().right <= clientWidth + 0.5) continue;
        culprits.push(`${describe(el)} right=${Math.round(rect.right)}`);
        if (culprits.length === 5) break;
      }
    }
    return { scrollWidth, clientWidth, culprits };
  });
}

/** WCAG 1.4.10: the page needs no horizontal scrolling (a table may scroll inside its own region). */
export async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, clientWidth, culprits } = await horizontalOverflow(page);
  expect(
    scrollWidth,
    `${where}: the page scrolls sideways (scrollWidth ${scrollWidth} > clientWidth ${clientWidth}) at ${culprits.join(', ')}`,
  ).toBeLessThanOrEqual(clientWidth);
}

/**
 * Text cut off: elements that hide their overflow (overflow hidden or clip) while their text needs more room.
 * Visually hidden text and deliberate truncation (line-clamp, text-overflow: ellipsis) are left out.
 */
export async function clippedText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (el: Element): string =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    const clipped: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const style = getComputedStyle(el);
      const hidesX = /(hidden|clip)/.test(style.overflowX);
      const hidesY = /(hidden|clip)/.test(style.overflowY);
      if (!hidesX && !hidesY) continue;
      // Visually hidden text (the sr-only pattern) is clipped on purpose.
      if (style.clip !== 'auto' || style.clipPath !== 'none' || el.clientWidth <= 1 || el.clientHeight <= 1) continue;
      if (style.webkitLineClamp !== 'none' && style.webkitLineClamp !== '') continue;
      if (style.textOverflow === 'ellipsis') continue;
      if (!(el.textContent ?? '').trim() || el.closest('[hidden], [aria-hidden="true"]')) continue;
      const overX = hidesX && el.scrollWidth > el.clientWidth + 1;
      const overY = hidesY && el.scrollHeight > el.clientHeight + 1;
      if (overX || overY)
        clipped.push(`${describe(el)} scroll ${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight}`);
    }
    return clipped;
  });
}

/**
 * WCAG 1.4.10 and 1.4.12 on the screen now shown: no horizontal scrolling, then with the text spacing applied
 * still none, and no text cut off. The spacing is removed again afterwards.
 */
export async function expectReflowWithTextSpacing(page: Page, where: string): Promise<void> {
  await expectNoHorizontalScroll(page, where);
  const style = await page.addStyleTag({ content: TEXT_SPACING_CSS });
  try {
    await expectNoHorizontalScroll(page, `${where} with text spacing`);
    expect(await clippedText(page), `${where} with text spacing: text cut off`).toEqual([]);
  } finally {
    await style.evaluate((element) => element.parentNode?.removeChild(element));
  }
}

interface TabStop {
  readonly name: string;
  readonly key: number;
  readonly indicator: boolean;
  readonly obscured: string | null;
}

/** Marks every element with its unfocused outline and box shadow, to compare with once focus arrives. */
async function recordUnfocusedStyles(page: Page): Promise<void> {
  await page.evaluate(() => {
    const record = new WeakMap<Element, string>();
    let key = 0;
    for (const el of Array.from(document.querySelectorAll('*'))) {
      const style = getComputedStyle(el);
      record.set(el, `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}|${style.boxShadow}`);
      (el as HTMLElement).dataset.a11yKey ??= String(key++);
    }
    (window as unknown as { unfocusedStyles: WeakMap<Element, string> }).unfocusedStyles = record;
  });
}

/** What the focused element shows: an indicator on it or a close ancestor, and whether the sticky header hides it. */
async function currentTabStop(page: Page): Promise<TabStop | null> {
  return page.evaluate(() => {
    const describe = (el: Element): string =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    const record = (window as unknown as { unfocusedStyles: WeakMap<Element, string> }).unfocusedStyles;
    // An indicator: an outline at least 2 px wide that is not transparent, or a box shadow that was not there,
    // on the element or one of its four closest ancestors (a card that rings when its link has focus).
    let indicator = false;
    let node: Element | null = el;
    for (let level = 0; node && level < 5 && !indicator; level++, node = node.parentElement) {
      const style = getComputedStyle(node);
      const now = `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}|${style.boxShadow}`;
      if (now === record.get(node)) continue;
      const outline =
        style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 && !/^rgba\(.*,\s*0\)$|transparent/.test(style.outlineColor);
      const shadow = style.boxShadow !== 'none' && style.boxShadow !== (record.get(node) ?? '').split('|')[1];
      indicator = outline || shadow;
    }
    // Obscured: a sticky or fixed header over part of it (what the focused element's own layer covers is fine).
    let obscured: string | null = null;
    const header = document.querySelector('header');
    const rect = el.getBoundingClientRect();
    if (header && !header.contains(el) && /sticky|fixed/.test(getComputedStyle(header).position)) {
      const bar = header.getBoundingClientRect();
      const fitsBelow = rect.height <= window.innerHeight - bar.height;
      if (fitsBelow && rect.top < bar.bottom - 1 && rect.bottom > bar.top) {
        const x = Math.min(Math.max(rect.left + rect.width / 2, 0), window.innerWidth - 1);
        const y = Math.min(Math.max(rect.top + 1, bar.top + 1), bar.bottom - 1);
        const top = document.elementFromPoint(x, y);
        if (top && header.contains(top)) obscured = `top ${Math.round(rect.top)} under the header ending at ${Math.round(bar.bottom)}`;
      }
    }
    return { name: describe(el), key: Number((el as HTMLElement).dataset.a11yKey ?? -1), indicator, obscured };
  });
}

/**
 * WCAG 2.4.7 and 2.4.11 along the tab order of the screen now shown: Tab from the top through every control
 * (at most `limit`), then Shift+Tab back, which scrolls each control in at the top edge, next to the sticky
 * header. Each stop must show a focus indicator and must not be under the header. Answers the problems.
 */
export async function focusProblems(page: Page, limit = 80): Promise<string[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await recordUnfocusedStyles(page);
  const problems: string[] = [];
  const seen = new Set<number>();
  for (let step = 0; step < limit; step++) {
    await page.keyboard.press('Tab');
    const stop = await currentTabStop(page);
    if (!stop || seen.has(stop.key)) break;
    seen.add(stop.key);
    if (!stop.indicator) problems.push(`Tab: ${stop.name} shows no focus indicator`);
    if (stop.obscured) problems.push(`Tab: ${stop.name} is under the sticky header (${stop.obscured})`);
  }
  for (let step = 0; step < seen.size; step++) {
    await page.keyboard.press('Shift+Tab');
    const stop = await currentTabStop(page);
    if (!stop) break;
    if (stop.obscured) problems.push(`Shift+Tab: ${stop.name} is under the sticky header (${stop.obscured})`);
  }
  expect(seen.size, 'no control was reached with Tab').toBeGreaterThan(0);
  return problems;
}

/**
 * Motion left on the screen when the visitor asked for less (the context emulates prefers-reduced-motion:
 * reduce): elements with a transition or an animation that lasts.
 */
export async function motionProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (el: Element): string =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    const seconds = (list: string) =>
      Math.max(...list.split(',').map((value) => parseFloat(value) * (value.trim().endsWith('ms') ? 0.001 : 1)));
    const problems: string[] = [];
    for (const el of Array.from(document.querySelectorAll('*'))) {
      const style = getComputedStyle(el);
      if (style.transitionProperty !== 'none' && seconds(style.transitionDuration) + seconds(style.transitionDelay) > 0.01) {
        problems.push(`${describe(el)} transition ${style.transitionProperty} ${style.transitionDuration}`);
      }
      if (style.animationName !== 'none' && seconds(style.animationDuration) > 0.01) {
        problems.push(`${describe(el)} animation ${style.animationName} ${style.animationDuration} × ${style.animationIterationCount}`);
      }
    }
    return problems.slice(0, 10);
  });
}

/**
 * Controls that would lose their edges in forced colors. Call it with the page in normal colors: it marks the
 * links drawn as filled buttons (an opaque background under light text), then switches the page to
 * forced-colors: active and checks that every visible button, form field and such link has a border on each
 * side. The page is left in forced colors.
 */
export async function forcedColorsProblems(page: Page): Promise<string[]> {
  await page.evaluate(() => {
    for (const link of Array.from(document.querySelectorAll<HTMLElement>('a[href]'))) {
      const style = getComputedStyle(link);
      const [r, g, b, a = 1] = (style.backgroundColor.match(/[\d.]+/g) ?? []).map(Number);
      const [tr = 0, tg = 0, tb = 0] = (style.color.match(/[\d.]+/g) ?? []).map(Number);
      const light = (tr + tg + tb) / 3;
      const background = ((r ?? 255) + (g ?? 255) + (b ?? 255)) / 3;
      if (a > 0.5 && Math.abs(light - background) > 60 && background < 230) link.dataset.filledLink = 'true';
    }
  });
  await page.emulateMedia({ forcedColors: 'active' });
  expect(await page.evaluate(() => matchMedia('(forced-colors: active)').matches)).toBe(true);
  return page.evaluate(() => {
    const describe = (el: Element): string =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    const controls = document.querySelectorAll<HTMLElement>(
      'button, select, textarea, input:not([type="hidden"], [type="checkbox"], [type="radio"]), a[data-filled-link]',
    );
    const problems: string[] = [];
    for (const el of Array.from(controls)) {
      const rect = el.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1 || el.closest('[hidden], .sr-only')) continue;
      const style = getComputedStyle(el);
      const sides = ['Top', 'Right', 'Bottom', 'Left'] as const;
      const bare = sides.filter(
        (side) =>
          parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) === 0 ||
          style.getPropertyValue(`border-${side.toLowerCase()}-style`) === 'none',
      );
      if (bare.length > 0) problems.push(`${describe(el)} has no border (${bare.join(', ').toLowerCase()})`);
    }
    return problems;
  });
}
