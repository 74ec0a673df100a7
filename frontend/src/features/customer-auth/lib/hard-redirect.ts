/** A full page load of `href` (leaves the SPA's state behind); its own module so tests can replace it. */
export function hardRedirect(href: string): void {
  window.location.replace(href);
}
