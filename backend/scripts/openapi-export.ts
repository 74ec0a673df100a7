/**
 * The OpenAPI document GET /api/openapi.json serves, written to a file without starting a server: it is built
 * from the modules' fragments (src/openapi/openapi-fragments.ts) exactly as OpenApiController builds it. And
 * the TypeScript types openapi-typescript generates from it (test/generated/openapi.d.ts, for typed clients).
 *
 *   SWC_NODE_PROJECT=tsconfig.spec.json node -r @swc-node/register scripts/openapi-export.ts [--out FILE] [--types FILE]
 *
 * --out writes the JSON, --types the generated types; with neither the JSON goes to standard output.
 *   npm run openapi:lint                         (at the root) lints the JSON with Redocly (redocly.yaml)
 *   npm run openapi:types --workspace backend    writes test/generated/openapi.d.ts
 * src/openapi/generated-types.unit.spec.ts fails when test/generated/openapi.d.ts differs from a new generation.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OpenAPI3 } from 'openapi-typescript';
import { buildOpenApiDocument } from '../src/openapi/openapi-document';

export const OPENAPI_TYPES_PATH = path.resolve(__dirname, '../test/generated/openapi.d.ts');

/** The document as served, pretty-printed, with a final newline. */
export function openApiJson(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

/**
 * test/generated/openapi.d.ts as openapi-typescript generates it from the document now. (Loaded only here: it
 * requires ES modules, which Node loads for this script but jest cannot, so the unit spec runs this script.)
 */
export async function openApiTypes(): Promise<string> {
  const { default: openapiTS, astToString, COMMENT_HEADER } = await import('openapi-typescript');
  const ast = await openapiTS(buildOpenApiDocument() as unknown as OpenAPI3, { silent: true });
  const regenerate = '// From the OpenAPI document (backend/src/openapi): regenerate with `npm run openapi:types --workspace backend`.';
  return `${COMMENT_HEADER.trimEnd()}\n${regenerate}\n\n${astToString(ast)}`;
}

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const value = args[at + 1];
  if (!value || value.startsWith('--')) {
    process.stderr.write(`openapi-export: ${name} needs a file name\n`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const out = option(args, '--out');
  const types = option(args, '--types');
  if (out) writeFileSync(out, openApiJson());
  if (types) writeFileSync(types, await openApiTypes());
  if (!out && !types) process.stdout.write(openApiJson());
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`openapi-export: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
