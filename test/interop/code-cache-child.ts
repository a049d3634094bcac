/**
 * The child of the code cache tests (scripts/core-shim.js): each test works on its own copy of
 * dist/bundle in a temporary folder, so that no other test's children write into the cache it
 * watches; a child there imports the copy, serves one tool over stdio, answers one call and
 * exits when its input ends (the exit writes a missing or refused cache at once).
 *
 *   const folder = copy()
 *   expect(answerOf((await run(folder)).stdout)).toMatchObject(sum)
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { root } from './children.js'

const folders: string[] = []
// the copies of the test file that imported this module go when it ends
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

/** A fresh copy of the built bundle, with a module type and the child below. */
export const copy = (): string => {
  const folder = mkdtempSync(join(tmpdir(), 'emcp-code-cache-'))
  folders.push(folder)
  cpSync(join(root, 'dist', 'bundle'), join(folder, 'bundle'), { recursive: true, filter: (from) => !from.endsWith('.v8cache') })
  writeFileSync(join(folder, 'package.json'), '{"type":"module"}\n')
  writeFileSync(join(folder, 'child.js'), child)
  return folder
}

const child = `
import { emcp, mcpServer, ToolError } from './bundle/index.js'
import { serveStdio } from './bundle/stdio.js'
const add = emcp({
  name: 'add',
  description: 'Adds two numbers.',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
})
if (process.argv[2] === 'throw') {
  try { mcpServer([add, add], { name: 'c', version: '1' }) } catch (e) { process.stdout.write(JSON.stringify({ stack: e.stack }) + '\\n') }
} else {
  await serveStdio(mcpServer([add], { name: 'c', version: '1' }).implement({ add: ({ a, b }) => (a < 0 ? Promise.reject(new ToolError('negative')) : { sum: a + b }) }))
}
`

/** The call every child answers: add 2 and 3. */
export const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } })

/** Runs the child in `folder` with `args` and `env`, sends one call, and resolves with its output once it exited. */
export const run = (folder: string, options: { args?: string[]; nodeArgs?: string[]; env?: Record<string, string> } = {}): Promise<{ stdout: string; stderr: string; code: number | null }> =>
  new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [...(options.nodeArgs ?? []), join(folder, 'child.js'), ...(options.args ?? [])], {
      cwd: folder,
      env: { ...process.env, NODE_OPTIONS: '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 60_000,
    })
    let stdout = ''
    let stderr = ''
    c.stdout.setEncoding('utf8').on('data', (s: string) => {
      stdout += s
      // the answer is in: end the input, and the child exits
      if (stdout.includes('\n')) c.stdin.end()
    })
    c.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s))
    c.on('error', reject)
    c.on('close', (code) => resolve({ stdout, stderr, code }))
    c.stdin.write(`${call}\n`)
  })

/** The answer to the call, as the child wrote it. */
export const answerOf = (stdout: string): unknown => JSON.parse(stdout.split('\n')[0]!)

/** The cache files in the copy's bundle folder, by name, with their inode (a rewrite is a new file). */
export const caches = (folder: string): Map<string, number> =>
  new Map(
    readdirSync(join(folder, 'bundle'))
      .filter((name) => name.endsWith('.v8cache'))
      .map((name) => [name, statSync(join(folder, 'bundle', name)).ino]),
  )

/** Files left behind by a write (the temporary ones). */
export const leftovers = (folder: string): string[] => readdirSync(join(folder, 'bundle')).filter((name) => name.endsWith('.tmp'))

/** The answer to `call`. */
export const sum = { jsonrpc: '2.0', id: 1, result: { structuredContent: { sum: 5 } } }
