/**
 * A server with every reliability limit set explicitly: a per-call timeout, a drain timeout
 * for graceful shutdown, the line and body sizes, the session count and idle time. Its tools
 * are the calculator's `add` and `echo` plus `sleep`, which waits (and stops early when its
 * call is cancelled or times out). The hardening tests and `npm run soak` run it.
 *
 *   node dist/examples/hardened.js --stdio
 *   node dist/examples/hardened.js --http [--sessions] [--port 3000]
 *
 * Environment: CALL_TIMEOUT_MS (default 30000), DRAIN_TIMEOUT_MS (default 5000).
 */
import { emcp, mcpServer } from 'emcp'
import { serveHttp } from 'emcp/http'
import { serveStdio } from 'emcp/stdio'
import { portOf, runMain } from './main.js'
import { add, echo } from './calculator.js'

export const sleep = emcp({
  name: 'sleep',
  description: 'Wait for ms milliseconds, then answer "slept"; stops early with "aborted: <reason>" when the call is cancelled. Reports progress 0 when it starts, given a progress token (and logs the start on stderr).',
  input: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } }, required: ['ms'], additionalProperties: false },
  annotations: { readOnlyHint: true },
})

const number = (name: string, fallback: number): number => {
  const v = Number(process.env[name] ?? fallback)
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a number of milliseconds, got ${JSON.stringify(process.env[name])}`)
  return v
}

/** The server: timeouts from the environment, so that a test can shorten them. */
export const hardened = mcpServer([add, echo, sleep], { name: 'hardened', version: '1.0.0' }, { callTimeoutMs: number('CALL_TIMEOUT_MS', 30_000) }).implement({
  add: ({ a, b }) => ({ sum: a + b }),
  echo: ({ text }) => text,
  sleep: ({ ms }, { signal, progress }) =>
    new Promise<string>((resolve) => {
      // the call is running once these arrive: progress for a client that can get it, a log line for the operator
      progress(0, ms)
      console.error(`sleep: ${ms} ms started`)
      const timer = setTimeout(() => resolve('slept'), ms)
      signal.addEventListener('abort', () => {
        clearTimeout(timer)
        resolve(`aborted: ${String(signal.reason)}`)
      })
    }),
})

const usage = `A server with every reliability limit set explicitly (add, echo, sleep).

  node dist/examples/hardened.js --stdio
  node dist/examples/hardened.js [--http] [--sessions] [--port 3000]

Environment: CALL_TIMEOUT_MS (default 30000), DRAIN_TIMEOUT_MS (default 5000).`

const options = { stdio: { type: 'boolean' }, http: { type: 'boolean' }, sessions: { type: 'boolean' }, port: { type: 'string' } } as const

runMain(import.meta.url, { usage, options }, async ({ stdio, sessions, port }) => {
  const drainTimeoutMs = number('DRAIN_TIMEOUT_MS', 5_000)
  if (stdio === true) {
    // a line may be up to 32 MiB; 64 calls run at once before reading pauses
    await serveStdio(hardened, { maxLineBytes: 32 * 1024 * 1024, maxInFlight: 64, drainTimeoutMs })
    return
  }
  const running = await serveHttp(hardened, {
    port: portOf(port, 3000),
    maxBodyBytes: 4 * 1024 * 1024,
    drainTimeoutMs,
    sessions: sessions === true ? { maxSessions: 10_000, idleMs: 10 * 60_000 } : false,
  })
  // SIGTERM or SIGINT: calls in flight are answered, new requests get 503, then the process exits with 0
  console.log(`hardened MCP server listening on ${running.url}`)
})
