import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// the examples import emcp as users do ('emcp', 'emcp/stdio', ...); in-process tests resolve
// those names to the sources, so that a test and the example it imports share one copy
const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url))
const entries: ReadonlyArray<readonly [string, string]> = [
  ['emcp', './src/index.ts'],
  ['emcp/stdio', './src/transport/stdio.ts'],
  ['emcp/http', './src/transport/http.ts'],
  ['emcp/fetch', './src/transport/fetch.ts'],
  ['emcp/workers', './src/transport/workers.ts'],
  ['emcp/hono', './src/transport/http/adapters/hono.ts'],
  ['emcp/express', './src/transport/http/adapters/express.ts'],
  ['emcp/fastify', './src/transport/http/adapters/fastify.ts'],
  ['emcp/manifest', './src/sources/manifest/index.ts'],
  ['emcp/postgres', './src/sources/postgres/index.ts'],
  ['emcp/postgres-store', './src/stores/postgres.ts'],
  ['emcp/redis', './src/stores/redis.ts'],
  ['emcp/geometry', './src/codecs/geometry.ts'],
  ['emcp/meos', './src/sources/meos/index.ts'],
  ['emcp/oauth', './src/auth/index.ts'],
  ['emcp/otel', './src/otel/index.ts'],
  ['emcp/proxy', './src/sources/proxy/index.ts'],
  ['emcp/openapi', './src/sources/openapi/index.ts'],
  ['emcp/cli', './src/cli/index.ts'],
  ['emcp/client', './src/client/index.ts'],
]

export default defineConfig({
  resolve: {
    alias: entries.map(([name, path]) => ({ find: new RegExp(`^${name}$`), replacement: source(path) })),
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/types/**', 'node_modules/**', 'dist/**'],
    // a bound on a hang, not a measure: the suite must pass on a loaded machine (npm run test:loaded)
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // builds dist/ when stale: the interop tests run the compiled examples
    globalSetup: ['test/interop/setup.ts'],
  },
})
