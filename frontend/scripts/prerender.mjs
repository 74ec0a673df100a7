// Prerenders every public route of the built SPA to its own HTML file, plus 404.html, spa.html,
// sitemap.xml, robots.txt and routes.json. Run after `vite build` and `vite build --ssr`.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const serverDir = path.join(root, 'dist-server');

const server = await import(pathToFileURL(path.join(serverDir, 'entry-server.js')).href);
// Everything about routes comes from the route table (src/config/paths.ts); this script only writes files.
const {
  APP_ROUTES,
  BUSINESS_PROFILE,
  CLIENT_ROUTE_PATTERNS,
  NOT_FOUND_ROUTE,
  PRERENDERED_PATHS,
  ROBOTS_DISALLOW,
  SHELL_META,
  SITEMAP_PATHS,
  absoluteUrl,
  pageModuleSource,
  render,
  renderHeadTags,
} = server;

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

/** modulepreload links for the route's own chunks, so hydration does not wait on a request waterfall. */
function preloadLinks(route) {
  const key = pageModuleSource(route.page);
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
const prerendered = APP_ROUTES.filter((route) => route.rendering === 'prerendered');
for (const route of prerendered) {
  const html = await render(route.path);
  if (html.includes('404 Page Not Found')) throw new Error(`${route.path} rendered the not-found page`);
  if (html.includes('{place}')) throw new Error(`${route.path} contains an unfilled {place}`);
  await write(route.path === '/' ? 'index.html' : path.join(route.path, 'index.html'), page(route.meta, html, preloadLinks(route)));
}

const notFoundHtml = await render('/this-page-does-not-exist');
if (!notFoundHtml.includes('404 Page Not Found')) throw new Error('The not-found route did not render');
await write('404.html', page(NOT_FOUND_ROUTE.meta, notFoundHtml, preloadLinks(NOT_FOUND_ROUTE)));

// The shell for client-only routes: an empty root, so the browser renders instead of hydrating.
await write('spa.html', page(SHELL_META, '', ''));

const lastmod = new Date().toISOString().slice(0, 10);
await write(
  'sitemap.xml',
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${SITEMAP_PATHS.map(
    (pathname) => `  <url><loc>${absoluteUrl(pathname)}</loc><lastmod>${lastmod}</lastmod></url>`,
  ).join('\n')}\n</urlset>\n`,
);
await write(
  'robots.txt',
  [
    'User-agent: *',
    'Allow: /',
    ...ROBOTS_DISALLOW.map((prefix) => `Disallow: ${prefix}`),
    '',
    `Sitemap: ${absoluteUrl('/sitemap.xml')}`,
    '',
  ].join('\n'),
);
// Read by the backend's SpaModule: which paths have their own HTML file and which get the SPA shell.
await write('routes.json', `${JSON.stringify({ prerendered: PRERENDERED_PATHS, clientRoutes: CLIENT_ROUTE_PATTERNS }, null, 2)}\n`);

console.log(`Prerendered ${PRERENDERED_PATHS.length} routes + 404.html + spa.html in ${Date.now() - started} ms`);
