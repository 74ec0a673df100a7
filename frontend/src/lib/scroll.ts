/**
 * Puts the window at the top at once. The site scrolls smoothly for in-page links (index.css); a screen
 * whose content has just been replaced (another page, the next step) must not glide there instead, or the
 * new content moves under the pointer for a moment and a click lands beside the button it aimed at.
 */
export function jumpToTop(): void {
  window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
}
