// Prerenders every public route of the built SPA to its own HTML file, plus 404.html, spa.html,
// sitemap.xml, robots.txt and routes.json. Run after `vite build` and `vite build --ssr`.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const serverDir = path.join(root, 'dist-server');

const server = await import(pathToFileURL(path.join(serverDir, 'entry-server.js')).href);
const { BUSINESS_PROFILE, CLIENT_ROUTE_PATTERNS, NOT_FOUND_META, PRERENDERED_PATHS, SHELL_META, absoluteUrl, getPageMeta, render, renderHeadTags } = server;

// The client build's index.html is the template. Keep a copy so the script can run again on its own.
const templateCopy = path.join(serverDir, 'template.html');
let template = await fs.readFile(path.join(dist, 'index.html'), 'utf8');
if (template.includes('<!--app-html-->')) {
  await fs.writeFile(templateCopy, template);
} else {
  template = await fs.readFile(templateCopy, 'utf8');
}

const manifest = JSON.parse(await fs.readFile(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);

function staticClosure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return seen;
  seen.add(key);
  for (const imported of chunk.imports ?? []) staticClosure(imported, seen);
  return seen;
}
const entryClosure = staticClosure(entryKey);

/** The lazily loaded module that renders a path (mirrors src/app/app-routes.tsx). */
function routeModule(pathname) {
  const named = {
    '/': 'home',
    '/services': 'services',
    '/about-us': 'about',
    '/contact': 'contact',
    '/faq': 'faq',
    '/google-reviews': 'google-reviews',
    '/refund-policy': 'refund-policy',
    '/terms-of-service': 'terms-of-service',
    '/privacy-policy': 'privacy-policy',
    '/unsubscribe': 'unsubscribe',
  }[pathname];
  if (named) return `src/app/routes/${named}.tsx`;
  if (/^\/[a-z]+\/services$/.test(pathname)) return 'src/app/routes/regional-services.tsx';
  if (pathname.startsWith('/computer-repair-')) return 'src/app/routes/computer-repair-landing.tsx';
  return 'src/app/routes/not-found.tsx';
}

/** modulepreload links for the route's own chunks, so hydration does not wait on a request waterfall. */
function preloadLinks(pathname) {
  const key = routeModule(pathname);
  if (!manifest[key]) throw new Error(`No chunk for ${key} in the client manifest`);
  const files = [...staticClosure(key)].filter((k) => !entryClosure.has(k)).map((k) => manifest[k].file);
  return files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}" />`).join('\n    ');
}

function page(meta, html, preload) {
  const head = [renderHeadTags(meta, BUSINESS_PROFILE.name), preload].filter(Boolean).join('\n    ');
  return template.replace('<!--app-head-->', head).replace('<!--app-html-->', html);
}

async function write(relative, content) {
  const file = path.join(dist, relative);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

const started = Date.now();
for (const pathname of PRERENDERED_PATHS) {
  const meta = getPageMeta(pathname);
  const html = await render(pathname);
  if (html.includes('404 Page Not Found')) throw new Error(`${pathname} rendered the not-found page`);
  if (html.includes('{place}')) throw new Error(`${pathname} contains an unfilled {place}`);
  await write(pathname === '/' ? 'index.html' : path.join(pathname, 'index.html'), page(meta, html, preloadLinks(pathname)));
}

const notFoundHtml = await render('/this-page-does-not-exist');
if (!notFoundHtml.includes('404 Page Not Found')) throw new Error('The not-found route did not render');
await write('404.html', page(NOT_FOUND_META, notFoundHtml, preloadLinks('/404')));

// The shell for client-only routes: an empty root, so the browser renders instead of hydrating.
await write('spa.html', page(SHELL_META, '', ''));

const indexed = PRERENDERED_PATHS.filter((pathname) => !getPageMeta(pathname).noindex);
const lastmod = new Date().toISOString().slice(0, 10);
await write(
  'sitemap.xml',
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${indexed
    .map((pathname) => `  <url><loc>${absoluteUrl(pathname)}</loc><lastmod>${lastmod}</lastmod></url>`)
    .join('\n')}\n</urlset>\n`,
);
await write(
  'robots.txt',
  ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /admin', 'Disallow: /customer/', 'Disallow: /ticket/', 'Disallow: /payment', 'Disallow: /confirmation/', '', `Sitemap: ${absoluteUrl('/sitemap.xml')}`, ''].join('\n'),
);
await write('routes.json', `${JSON.stringify({ prerendered: PRERENDERED_PATHS, clientRoutes: CLIENT_ROUTE_PATTERNS }, null, 2)}\n`);

console.log(`Prerendered ${PRERENDERED_PATHS.length} routes + 404.html + spa.html in ${Date.now() - started} ms`);
