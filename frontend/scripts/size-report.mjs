// Build report: the gzipped size of the JavaScript the home page loads (entry chunk and its static imports,
// plus the home route chunk and its static imports), against the 150 KB target.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const TARGET_KB = 150;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));

function closure(key, seen = new Set()) {
  if (!manifest[key] || seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) closure(imported, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const homeKey = 'src/app/routes/home.tsx';
if (!entryKey || !manifest[homeKey]) {
  console.error('size report: entry or home route chunk missing from the manifest');
  process.exit(1);
}
const keys = new Set([...closure(entryKey), ...closure(homeKey)]);
const rows = [...keys].map((key) => {
  const file = manifest[key].file;
  const bytes = fs.readFileSync(path.join(dist, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
});
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const total = rows.reduce((sum, row) => sum + row.gzip, 0);
const raw = rows.reduce((sum, row) => sum + row.raw, 0);

console.log('\nHome route JavaScript (gzipped):');
for (const row of rows.sort((a, b) => b.gzip - a.gzip)) {
  console.log(`  ${row.file.padEnd(48)} ${kb(row.raw).padStart(10)} raw ${kb(row.gzip).padStart(10)} gzip`);
}
console.log(`  ${'TOTAL'.padEnd(48)} ${kb(raw).padStart(10)} raw ${kb(total).padStart(10)} gzip`);
const css = (manifest[entryKey].css ?? [])
  .map((file) => gzipSync(fs.readFileSync(path.join(dist, file))).length)
  .reduce((a, b) => a + b, 0);
console.log(`  (CSS, not counted: ${kb(css)} gzip)`);
const ok = total <= TARGET_KB * 1024;
console.log(`Home JS ${kb(total)} gzipped vs target ${TARGET_KB} KB: ${ok ? 'PASS' : 'OVER TARGET'}\n`);
if (!ok) process.exit(1);
