import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'api',
          include: ['test/**/*.test.ts', 'common/**/*.test.ts', 'server/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        // The web app's pure modules: plain functions, so node is enough and no database is prepared for them.
        extends: true,
        test: { name: 'web', include: ['web/**/*.test.ts'], environment: 'node' },
      },
    ],
  },
});
