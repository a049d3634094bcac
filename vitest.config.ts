import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/types/**', 'node_modules/**', 'dist/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // builds dist/ when stale: the interop tests run the compiled examples
    globalSetup: ['test/interop/setup.ts'],
  },
})
