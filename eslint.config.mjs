// ESLint for every workspace (contracts, projections, backend, frontend) and bench/, spec files included.
// Type-aware rules come from typescript-eslint's project service: each file is checked with the tsconfig
// that owns it (the root tsconfig.json references the spec, bench and frontend configs), as an editor does.
// Formatting is Prettier's job (`npm run format`); eslint-config-prettier, last, turns off every rule that
// would fight it. The layout rules below are explained in docs/architecture.md ("Code layout rules").
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = path.dirname(fileURLToPath(import.meta.url));
const foldersIn = (dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const TS = ['**/*.ts', '**/*.tsx'];
const JS = ['**/*.js', '**/*.mjs', '**/*.cjs'];
const TESTS = ['**/*.spec.ts', '**/*.test.ts', '**/*.test.tsx', 'backend/test/**', 'frontend/src/test/**', 'frontend/e2e/**'];

// ---------------------------------------------------------------------------------------------------------
// Backend modules (docs/architecture.md, "Code layout rules"). Every folder of backend/src is a module,
// except common/ (shared code any module may use; it imports no module) and the composition roots.
const BACKEND = 'backend/src';
const COMPOSITION_ROOTS = ['cli', 'bootstrap']; // with backend/src/*.ts (main.ts, app.ts, app.module.ts)
const SHARED = ['common'];
const backendModules = foldersIn(BACKEND).filter((name) => !COMPOSITION_ROOTS.includes(name) && !SHARED.includes(name));

// Files of a module that other modules may import, wherever they sit in the module: the Nest module, its
// injection tokens, the interfaces it offers (ports, types) and the messages it handles on the CQRS buses.
const PUBLIC_BY_ROLE = [
  '*.module.ts',
  '*.tokens.ts',
  '*.port.ts',
  '*.types.ts',
  '*.command.ts',
  '*.query.ts',
  '*.queries.ts',
  '*.event.ts',
  // A module's part of the OpenAPI document, which backend/src/openapi/openapi-fragments.ts lists.
  '*.openapi.ts',
];
// Beyond those: the files that define what a module's *.module.ts `exports` (and the types needed to call it).
const backendPublicFiles = {
  // passwords.ts: hashing and the password rules, which admin accounts share with customers'.
  accounts: ['accounts.service.ts', 'passwords.ts'],
  // The admin session check, for the admin endpoints other modules add (email log, marketing).
  admin: ['admin.guard.ts'],
  auth: [
    'passport.service.ts',
    'principal.ts',
    'rate-limiter.ts',
    'session-store.ts',
    // The tickets a browser submitted as a guest (a signed cookie), for tickets and payments.
    'ticket-grants.ts',
    // The helpers every session endpoint uses: the session cookie, the client address key.
    'http-security.ts',
    'public-form-limit.ts',
    // The login flow customers and admins share.
    'password-login.ts',
    // The secret keys are derived from (the guest's ticket cookie, webhook secrets sealed at rest).
    'session-secret.ts',
  ],
  config: ['config.ts'],
  // The read markers (unread counts of the ticket lists) and the tickets' reply addresses (the reply emails' Reply-To).
  conversation: ['message-reads.ts', 'reply-address.ts'],
  database: ['database.ts'],
  // The in-memory adapter of the port, for other modules' fast handler tests.
  'event-store': ['in-memory-event-store.ts'],
  mail: ['mail.service.ts', 'html.ts', 'templates.ts'],
  // The types and helpers every module's *.openapi.ts fragment is written with.
  openapi: ['openapi-fragment.ts'],
  // TicketPaymentsService (refunds, for the admin API) is what PaymentsModule exports.
  payments: ['ticket-payments.service.ts'],
  // The one outbox sender, which every module with a side effect runs its outbox through.
  processing: ['outbox-sender.ts'],
  projections: ['read-your-writes.ts'],
  // The errors callers may see (the API maps each to an HTTP status).
  tickets: ['ticket-access.ts', 'ticket-errors.ts', 'ticket-id.ts', 'ticket-policy.ts'],
  unsubscribe: ['unsubscribe.service.ts'],
};

const abs = (...parts) => path.join(root, ...parts);
const backendZones = backendModules.flatMap((name) => {
  const others = backendModules.filter((other) => other !== name).map((other) => `./${BACKEND}/${other}`);
  const publicFiles = [
    ...PUBLIC_BY_ROLE.map((pattern) => abs(BACKEND, name, '**', pattern)),
    // (a glob, as the rule wants when `from` is one)
    ...(backendPublicFiles[name] ? [abs(BACKEND, name, `@(${backendPublicFiles[name].join('|')})`)] : []),
  ];
  return [
    {
      target: others,
      from: `./${BACKEND}/${name}/**`,
      except: publicFiles,
      message: `Only the public files of backend/src/${name} may be imported from another module: ${PUBLIC_BY_ROLE.join(', ')}, and the ones listed for it in backendPublicFiles (eslint.config.mjs). See docs/architecture.md, "Code layout rules".`,
    },
    {
      // Composition roots wire modules together: any top-level file of a module, never its inner folders.
      target: [`./${BACKEND}/*.ts`, ...COMPOSITION_ROOTS.map((dir) => `./${BACKEND}/${dir}/**`)],
      from: `./${BACKEND}/${name}/*/**`,
      except: PUBLIC_BY_ROLE.map((pattern) => abs(BACKEND, name, '**', pattern)),
      message: `The folders inside backend/src/${name} (domain/, commands/, queries/, ...) are private to that module. See docs/architecture.md, "Code layout rules".`,
    },
  ];
});

backendZones.push({
  target: SHARED.map((dir) => `./${BACKEND}/${dir}`),
  from: backendModules.map((name) => `./${BACKEND}/${name}`),
  message:
    'common/ sits below every module and imports none of them: define what it needs (an interface, a base error class) in common/ and let modules implement it. See docs/architecture.md, "Code layout rules".',
});

// Frontend: features never import each other (routes in src/app compose them); shared code (components/,
// lib/, config/, hooks/) imports neither features nor the app; features do not import the app.
const FRONTEND = 'frontend/src';
const frontendFeatures = foldersIn(`${FRONTEND}/features`);
const frontendZones = [
  ...frontendFeatures.map((name) => ({
    target: `./${FRONTEND}/features/${name}`,
    from: `./${FRONTEND}/features`,
    except: [`./${name}`],
    message: 'A feature never imports another feature: compose them in src/app, or move shared code to components/ or lib/.',
  })),
  {
    target: `./${FRONTEND}/features`,
    from: `./${FRONTEND}/app`,
    message: 'Features do not import the app layer (src/app imports features, not the other way round).',
  },
  {
    target: ['components', 'config', 'hooks', 'lib', 'types', 'utils'].map((dir) => `./${FRONTEND}/${dir}`),
    from: [`./${FRONTEND}/features`, `./${FRONTEND}/app`],
    message: 'Shared code (components/, config/, hooks/, lib/) imports neither features nor the app.',
  },
];

export default defineConfig(
  globalIgnores([
    '**/node_modules/',
    '**/dist/',
    'frontend/dist-server/',
    'frontend/e2e/.server/',
    '**/data/',
    '**/coverage/',
    '**/test-results/',
    '**/playwright-report/',
    '**/*.d.ts',
  ]),

  // Every file: ESLint's recommended rules and the import rules.
  {
    extends: [js.configs.recommended],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.mjs', '.js', '.cjs', '.json'] })],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      eqeqeq: ['error', 'smart'],
      // A relative import into another workspace skips its package.json (and its build): import it by name.
      'import-x/no-relative-packages': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...backendZones, ...frontendZones] }],
    },
  },

  // TypeScript, with type information.
  {
    files: TS,
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `return promise` inside try/catch skips the catch: await it there.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Node-style callbacks hand errors over untyped; the promise wrappers pass them on as they are.
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      // An async method without await is how a promise-returning interface is implemented synchronously.
      '@typescript-eslint/require-await': 'off',
      // Nest hands HTTP statuses around as numbers and compares them with its HttpStatus enum.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      '@typescript-eslint/only-throw-error': 'error',
    },
  },

  // Tests may use `any` for hostile inputs, and read response bodies (supertest types them `any`) freely.
  {
    files: TESTS,
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },

  // Migrations run against any schema version: kysely's own advice is `Kysely<any>`.
  {
    files: ['**/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  // bench/ belongs to no workspace: it measures the backend's own source files in place.
  {
    files: ['bench/**'],
    rules: { 'import-x/no-relative-packages': 'off' },
  },

  // Plain JavaScript (configs, scripts): no type information. jest configs are CommonJS.
  {
    files: JS,
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['**/jest.config.js'],
    languageOptions: { sourceType: 'commonjs' },
  },

  // Contracts: zod and its own files only (no other package, no node: module): both sides load them.
  {
    files: ['contracts/src/**'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|\\.{1,2}/)',
              message: 'contracts imports only zod and its own files (docs/architecture.md, "Code layout rules").',
            },
          ],
        },
      ],
    },
  },

  // Frontend: browser globals, React hooks.
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'react-hooks/exhaustive-deps': 'error' },
  },

  prettier,
);
