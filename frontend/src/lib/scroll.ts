/**
 * Puts the window at the top at once, whatever a style sheet says. The site never scrolls smoothly: its only
 * in-page link is the skip link, which must jump, and a glide after content is replaced (another page, the
 * next step, the first invalid field) moves the new content under the pointer, so a click lands beside the
 * button it aimed at.
 */
export function jumpToTop(): void {
  window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
}
