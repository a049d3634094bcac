/**
 * Where a syntax error is: Node's `SyntaxError` from `import()` names neither the file nor the
 * line, but the same import in a fresh Node process, when it fails, prints them (the file's
 * URL and line, the source line, a caret under the column). A graph with a syntax error never
 * links, so nothing in it runs there either; the child is still bounded in time and output.
 *
 * @example
 * import { syntaxErrorAt } from './syntax.js'
 * syntaxErrorAt('/app/dist/server.js') // '/app/dist/bad.js:3:8' (or undefined when Node does not say)
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** How long the child may take to find the error, and how much of its output is read. */
const limits = { timeoutMs: 15_000, maxBytes: 64 * 1024 } as const

/** `file:line:column` of the syntax error that stops `file` (or a module it imports) from loading; undefined when not found. */
export const syntaxErrorAt = (file: string): string | undefined => {
  const code = `await import(${JSON.stringify(pathToFileURL(file).href)})`
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: limits.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: limits.maxBytes,
    encoding: 'utf8',
  })
  return locate(child.stderr ?? '')
}

/** Reads Node's report: `URL:line`, the source line, then spaces and a caret under the column. */
const locate = (report: string): string | undefined => {
  const lines = report.split('\n')
  const at = lines.findIndex((l) => /^(file:\/\/\/?|\/).*:\d+$/.test(l))
  const head = lines[at]
  if (at < 0 || head === undefined) return undefined
  const colon = head.lastIndexOf(':')
  const where = head.slice(0, colon)
  const path = where.startsWith('file:') ? fileURLToPath(where) : where
  const caret = (lines[at + 2] ?? '').indexOf('^')
  return `${path}:${head.slice(colon + 1)}${caret >= 0 ? `:${caret + 1}` : ''}`
}
