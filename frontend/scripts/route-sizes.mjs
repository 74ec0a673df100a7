// The computation behind the build's size report (scripts/size-report.mjs), kept free of file access so that
// scripts/route-sizes.test.mjs can check it on a hand-made manifest.

/** Gzipped JavaScript budgets in KB (issue 14): the home page, and every non-admin client-rendered screen. */
export const HOME_BUDGET_KB = 150;
export const CUSTOMER_BUDGET_KB = 200;

/**
 * The chunks a page loads before it can render: the entry, the route module's chunk, and everything either
 * imports statically, transitively. Dynamic imports (e.g. Stripe's libraries on the payment screen) load later,
 * on demand, and are not counted.
 */
export function staticClosure(manifest, keys) {
  const seen = new Set();
  const visit = (key) => {
    if (!manifest[key] || seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return seen;
}

/**
 * The budget of one route in KB, or null when it has none: home 150, customer screens (client-rendered, not
 * under /admin) 200; the back office and the other prerendered pages are listed without a limit.
 */
export function budgetFor(route) {
  if (route.path === '/') return HOME_BUDGET_KB;
  const admin = route.path === '/admin' || route.path.startsWith('/admin/');
  if (route.rendering === 'client' && !admin) return CUSTOMER_BUDGET_KB;
  return null;
}

/**
 * One row per route: its module, the files it loads, their gzipped total and whether it is within budget.
 * `routes`: { path, rendering, moduleKey } (moduleKey: the route module's key in the Vite manifest);
 * `gzipSize(file)`: the gzipped byte size of one built file. Throws when a route's module has no chunk, since
 * a report that silently skips a route would pass for the wrong reason.
 */
export function computeRouteSizes(manifest, routes, gzipSize) {
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entryKey) throw new Error('size report: no entry chunk in the Vite manifest');
  const sizes = new Map();
  const sizeOf = (file) => {
    if (!sizes.has(file)) sizes.set(file, gzipSize(file));
    return sizes.get(file);
  };
  return routes.map((route) => {
    if (!manifest[route.moduleKey]) throw new Error(`size report: no chunk for ${route.moduleKey} (route ${route.path})`);
    const files = [...new Set([...staticClosure(manifest, [entryKey, route.moduleKey])].map((key) => manifest[key].file))];
    const gzipBytes = files.reduce((sum, file) => sum + sizeOf(file), 0);
    const budgetKb = budgetFor(route);
    return {
      path: route.path,
      moduleKey: route.moduleKey,
      files,
      gzipBytes,
      budgetKb,
      ok: budgetKb === null || gzipBytes <= budgetKb * 1024,
    };
  });
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** The report's table, one line per route. */
export function formatRouteSizeTable(rows) {
  const pathWidth = Math.max(5, ...rows.map((row) => row.path.length));
  const moduleWidth = Math.max(6, ...rows.map((row) => row.moduleKey.length));
  const line = (cells) =>
    `  ${cells[0].padEnd(pathWidth)}  ${cells[1].padEnd(moduleWidth)}  ${cells[2].padStart(5)}  ${cells[3].padStart(10)}  ${cells[4].padStart(8)}  ${cells[5]}`;
  return [
    line(['Route', 'Module', 'Files', 'JS gzip', 'Budget', 'Status']),
    ...rows.map((row) =>
      line([
        row.path,
        row.moduleKey,
        String(row.files.length),
        kb(row.gzipBytes),
        row.budgetKb === null ? '-' : `${row.budgetKb} KB`,
        row.budgetKb === null ? '' : row.ok ? 'PASS' : 'OVER BUDGET',
      ]),
    ),
  ].join('\n');
}
