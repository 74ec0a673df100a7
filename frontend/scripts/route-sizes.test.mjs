// Run: node --test scripts/route-sizes.test.mjs (from frontend/).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { budgetFor, computeRouteSizes, formatRouteSizeTable } from './route-sizes.mjs';

/** A manifest shaped like Vite's: entry -> vendor; home -> shared -> vendor; payment -> shared + dynamic stripe. */
const manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_vendor.js'] },
  '_vendor.js': { file: 'assets/vendor.js' },
  '_shared.js': { file: 'assets/shared.js', imports: ['_vendor.js'] },
  'src/app/routes/home.tsx': { file: 'assets/home.js', imports: ['_shared.js'] },
  'src/app/routes/payment.tsx': { file: 'assets/payment.js', imports: ['_shared.js'], dynamicImports: ['_stripe.js'] },
  '_stripe.js': { file: 'assets/stripe.js' },
  'src/app/routes/admin-dashboard.tsx': { file: 'assets/admin.js', imports: ['_shared.js'] },
};
const KB = 1024;
const sizes = {
  'assets/index.js': 10 * KB,
  'assets/vendor.js': 100 * KB,
  'assets/shared.js': 20 * KB,
  'assets/home.js': 5 * KB,
  'assets/payment.js': 30 * KB,
  'assets/stripe.js': 500 * KB,
  'assets/admin.js': 400 * KB,
};
const gzipSize = (file) => sizes[file];

describe('computeRouteSizes', () => {
  it('counts the entry, the route chunk and their static imports once each, never dynamic imports', () => {
    const [home, payment] = computeRouteSizes(
      manifest,
      [
        { path: '/', rendering: 'prerendered', moduleKey: 'src/app/routes/home.tsx' },
        { path: '/payment', rendering: 'client', moduleKey: 'src/app/routes/payment.tsx' },
      ],
      gzipSize,
    );
    assert.deepEqual([...home.files].sort(), ['assets/home.js', 'assets/index.js', 'assets/shared.js', 'assets/vendor.js']);
    assert.equal(home.gzipBytes, 135 * KB);
    assert.equal(home.budgetKb, 150);
    assert.equal(home.ok, true);
    assert.equal(payment.gzipBytes, 160 * KB);
    assert.ok(!payment.files.includes('assets/stripe.js'));
    assert.equal(payment.budgetKb, 200);
    assert.equal(payment.ok, true);
  });

  it('fails home over 150 KB and a customer route over 200 KB; admin routes have no budget', () => {
    const heavier = { ...sizes, 'assets/home.js': 21 * KB, 'assets/payment.js': 71 * KB };
    const rows = computeRouteSizes(
      manifest,
      [
        { path: '/', rendering: 'prerendered', moduleKey: 'src/app/routes/home.tsx' },
        { path: '/payment/:ticketId', rendering: 'client', moduleKey: 'src/app/routes/payment.tsx' },
        { path: '/admin/dashboard', rendering: 'client', moduleKey: 'src/app/routes/admin-dashboard.tsx' },
      ],
      (file) => heavier[file],
    );
    assert.deepEqual(
      rows.map((row) => [row.path, row.gzipBytes / KB, row.ok]),
      [
        ['/', 151, false],
        ['/payment/:ticketId', 201, false],
        ['/admin/dashboard', 530, true],
      ],
    );
    assert.match(formatRouteSizeTable(rows), /\/payment\/:ticketId .* 201\.0 KB +200 KB +OVER BUDGET/);
  });

  it('exactly at the budget passes', () => {
    const exact = { ...sizes, 'assets/home.js': 20 * KB };
    const [home] = computeRouteSizes(
      manifest,
      [{ path: '/', rendering: 'prerendered', moduleKey: 'src/app/routes/home.tsx' }],
      (f) => exact[f],
    );
    assert.equal(home.gzipBytes, 150 * KB);
    assert.equal(home.ok, true);
  });

  it('refuses a route whose module has no chunk, rather than skipping it', () => {
    assert.throws(
      () => computeRouteSizes(manifest, [{ path: '/faq', rendering: 'prerendered', moduleKey: 'src/app/routes/faq.tsx' }], gzipSize),
      /no chunk for src\/app\/routes\/faq\.tsx/,
    );
  });
});

describe('budgetFor', () => {
  it('home 150, customer client routes 200, admin and other prerendered pages none', () => {
    assert.equal(budgetFor({ path: '/', rendering: 'prerendered' }), 150);
    assert.equal(budgetFor({ path: '/customer/dashboard', rendering: 'client' }), 200);
    assert.equal(budgetFor({ path: '/ticket/:id', rendering: 'client' }), 200);
    assert.equal(budgetFor({ path: '/admin', rendering: 'client' }), null);
    assert.equal(budgetFor({ path: '/admin/setup', rendering: 'client' }), null);
    assert.equal(budgetFor({ path: '/faq', rendering: 'prerendered' }), null);
    // A customer path that merely starts with the letters "admin" is not the back office.
    assert.equal(budgetFor({ path: '/administration-help', rendering: 'client' }), 200);
  });
});
