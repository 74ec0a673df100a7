// Build report: for every route of routes.json, the gzipped JavaScript it loads before rendering (the entry
// chunk, the route module's chunk and all their static imports), against the budgets of scripts/route-sizes.mjs:
// home under 150 KB, every customer screen (client-rendered, not admin) under 200 KB. Fails the build when one
// is over. Run after scripts/prerender.mjs (which writes routes.json).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { computeRouteSizes, formatRouteSizeTable } from './route-sizes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const routesJson = JSON.parse(fs.readFileSync(path.join(dist, 'routes.json'), 'utf8'));

// routes.json lists the paths; which module renders each comes from the same route table, through the SSR build.
const { APP_ROUTES, pageModuleSource } = await import(pathToFileURL(path.join(root, 'dist-server', 'entry-server.js')).href);
const byPath = new Map(APP_ROUTES.map((route) => [route.path, route]));

const routes = [
  ...routesJson.prerendered.map((routePath) => ({ routePath, rendering: 'prerendered' })),
  ...routesJson.clientRoutes.map((routePath) => ({ routePath, rendering: 'client' })),
].map(({ routePath, rendering }) => {
  const route = byPath.get(routePath);
  if (!route) {
    console.error(`size report: ${routePath} is in routes.json but not in the route table; rebuild`);
    process.exit(1);
  }
  return { path: routePath, rendering, moduleKey: pageModuleSource(route.page) };
});

let rows;
try {
  rows = computeRouteSizes(manifest, routes, (file) => gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

console.log('\nJavaScript per route (entry + route chunk + static imports, gzipped):');
console.log(formatRouteSizeTable(rows));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const css = (manifest[entryKey].css ?? [])
  .map((file) => gzipSync(fs.readFileSync(path.join(dist, file))).length)
  .reduce((a, b) => a + b, 0);
console.log(`  (CSS, not counted: ${(css / 1024).toFixed(1)} KB gzip)`);

const over = rows.filter((row) => !row.ok);
if (over.length > 0) {
  console.error(`\nSize report: ${over.length} route(s) over budget: ${over.map((row) => row.path).join(', ')}\n`);
  process.exit(1);
}
console.log(`Size report: ${rows.length} routes, all within budget (home 150 KB, customer routes 200 KB).\n`);
