import { absoluteUrl, type PageMeta } from '../config/paths';
import { localBusinessJsonLd } from './structured-data';

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The head tags of a page as HTML, for the prerendered files. */
export function renderHeadTags(meta: PageMeta, siteName: string): string {
  const tags = [`<title>${escapeHtml(meta.title)}</title>`, `<meta name="description" content="${escapeHtml(meta.description)}" />`];
  if (meta.noindex) tags.push('<meta name="robots" content="noindex" />');
  if (meta.canonicalPath !== null) {
    const url = absoluteUrl(meta.canonicalPath);
    tags.push(`<link rel="canonical" href="${escapeHtml(url)}" />`, `<meta property="og:url" content="${escapeHtml(url)}" />`);
  }
  tags.push(
    `<meta property="og:type" content="${escapeHtml(meta.openGraph.type)}" />`,
    `<meta property="og:site_name" content="${escapeHtml(siteName)}" />`,
    `<meta property="og:title" content="${escapeHtml(meta.openGraph.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.openGraph.description)}" />`,
    `<meta name="twitter:card" content="summary" />`,
  );
  if (!meta.noindex) {
    // JSON inside <script>: escape "<" so no text can close the element.
    const json = JSON.stringify(localBusinessJsonLd()).replace(/</g, '\\u003c');
    tags.push(`<script type="application/ld+json">${json}</script>`);
  }
  return tags.join('\n    ');
}

function setMeta(attribute: 'name' | 'property', key: string, content: string | null): void {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (content === null) {
    element?.remove();
    return;
  }
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.appendChild(element);
  }
  element.content = content;
}

/** Brings the live document's head in line with the page after a client-side navigation. */
export function applyHeadTags(meta: PageMeta): void {
  document.title = meta.title;
  setMeta('name', 'description', meta.description);
  setMeta('name', 'robots', meta.noindex ? 'noindex' : null);
  setMeta('property', 'og:type', meta.openGraph.type);
  setMeta('property', 'og:title', meta.openGraph.title);
  setMeta('property', 'og:description', meta.openGraph.description);
  const url = meta.canonicalPath === null ? null : absoluteUrl(meta.canonicalPath);
  setMeta('property', 'og:url', url);
  let canonical = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (url === null) {
    canonical?.remove();
  } else {
    if (!canonical) {
      canonical = document.createElement('link');
      canonical.rel = 'canonical';
      document.head.appendChild(canonical);
    }
    canonical.href = url;
  }
}
