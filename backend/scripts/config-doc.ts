/**
 * docs/configuration.md, generated from the configuration schema (backend/src/config/config.ts): one row per
 * variable with its default (what the schema gives for an unset variable) and its `.describe()` text, so the
 * page cannot drift from what the server reads. A variable without a description is an error.
 *
 *   npm run docs:config --workspace backend   writes docs/configuration.md
 *   (without --write the text goes to standard output)
 *
 * src/config/config-doc.unit.spec.ts fails when docs/configuration.md differs from this text.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { configSchema } from '../src/config/config';

export const CONFIG_DOC_PATH = path.resolve(__dirname, '../../docs/configuration.md');

const HEADER = `# Configuration

<!-- Generated from backend/src/config/config.ts by \`npm run docs:config --workspace backend\`: edit the schema's
.describe() texts there, not this file (backend/src/config/config-doc.unit.spec.ts checks that it is current). -->

Everything is read from the environment and validated at start-up: a bad value stops the server with a message
naming the variable. "(unset)" means no value; what the product then does is in the description.
`;

/** What the schema makes of an unset variable, as the table shows it. */
function defaultOf(name: string, field: z.ZodType): string {
  const parsed = field.safeParse(undefined);
  if (!parsed.success) return '(required)';
  const value: unknown = parsed.data;
  if (value === undefined) return '(unset)';
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : `\`${value.join(', ')}\``;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return `\`${String(value)}\``;
  throw new Error(`${name}: no way to show its default (${typeof value})`);
}

/** A table cell: no line breaks, pipes escaped. */
const cell = (text: string): string => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/** The whole page. Throws when a variable has no description. */
export function configDoc(): string {
  const rows = Object.entries(configSchema.shape).map(([name, field]: [string, z.ZodType]) => {
    if (!field.description) throw new Error(`${name} has no .describe() text in backend/src/config/config.ts`);
    return `| \`${name}\` | ${cell(defaultOf(name, field))} | ${cell(field.description)} |`;
  });
  return `${HEADER}\n| variable | default | what it does |\n|---|---|---|\n${rows.join('\n')}\n`;
}

if (require.main === module) {
  if (process.argv.includes('--write')) {
    writeFileSync(CONFIG_DOC_PATH, configDoc());
    console.log(`Wrote ${path.relative(process.cwd(), CONFIG_DOC_PATH)}`);
  } else {
    process.stdout.write(configDoc());
  }
}
