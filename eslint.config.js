import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/*
 * The web app's layers, lowest first: lib/ (no React state, no domain), components/ (shared UI that takes data and
 * callbacks), app/ (what many features share: me, permissions, the organization, the workspace, query keys), then
 * features/. Each layer imports only the ones below it; routes.tsx and main.tsx compose the features.
 * A feature's public entry is the files at its root (its pages, views and the hooks it offers); its sub-folders
 * (api/, components/, …) are its internals, which no other feature imports.
 * The rules read import paths as written, so a relative path is matched by how far up it climbs: a file n folders
 * below web/features/<feature>/ climbs n + 1 levels to reach the other features.
 */
const upInto = (folders) => `^(\\.\\./)+(${folders})(/|$)`;
// no-restricted-imports does not see import(), which lazy-loads pages and dialogs: a selector on it does.
const dynamicImportRule = (regex, message) => ({
  'no-restricted-syntax': [
    'error',
    { selector: `ImportExpression > Literal[value=/${regex.replaceAll('/', '\\/')}/]`, message },
  ],
});
const layerRule = (folders, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ regex: upInto(folders), message }] }],
  ...dynamicImportRule(upInto(folders), message),
});
const INTERNALS_MESSAGE =
  "Another feature's internals: import its public entry (a file at its root), or lift the shared piece into web/app/.";
const featureBoundaries = Array.from({ length: 6 }, (_, depth) => {
  const intoInternals = `^(\\.\\./){${String(depth + 1)}}[^./][^/]*/[^/]+/`;
  return {
    files: [`web/features/*/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: intoInternals, message: INTERNALS_MESSAGE }] }],
      ...dynamicImportRule(intoInternals, INTERNALS_MESSAGE),
    },
  };
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'server/db/migrations/**',
      'e2e/screenshots/**',
      '.venv-train/**',
      'training/build/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['web/lib/**/*.{ts,tsx}'],
    rules: layerRule(
      'components|app|features',
      'web/lib/ is the lowest layer: it imports no components, app or features.',
    ),
  },
  {
    files: ['web/components/**/*.{ts,tsx}'],
    rules: layerRule(
      'app|features',
      'Shared components take data and callbacks: the hooks that load them live in web/app/ or in a feature.',
    ),
  },
  {
    files: ['web/app/**/*.{ts,tsx}'],
    rules: layerRule('features', 'web/app/ is shared by the features, so it cannot depend on one of them.'),
  },
  ...featureBoundaries,
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // Tests may assert on a fixture they just created without re-checking it exists.
    files: ['test/**/*.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
