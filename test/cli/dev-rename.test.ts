/**
 * `emcp dev` keeps watching a file that is replaced by rename, as editors and `sed -i` save:
 * the new content is written to a file beside it and renamed over it. On Linux a recursive
 * folder watch follows each file by its inode, and lost a file so replaced; each save here
 * must reload, the module itself and a file it imports, again and again. The built command
 * runs as a child process; the test waits for its "generation N serving" lines.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const emcpBundle = pathToFileURL(join(root, 'dist/bundle/index.js')).href

let dir = ''
let child: ChildProcess | undefined
let text = ''
const waiting: Array<() => void> = []

/** Resolves with the first line of standard error matching `pattern` (already printed or to come). */
const line = (pattern: RegExp): Promise<string> =>
  new Promise((resolve, reject) => {
    const seen = (): void => {
      const hit = text.split('\n').find((l) => pattern.test(l))
      if (hit !== undefined) return resolve(hit)
      if (child?.exitCode !== null) return reject(new Error(`emcp dev exited: ${text}`))
      waiting.push(seen)
    }
    seen()
  })

/** Saves as `sed -i` does: a new file beside `name`, renamed over it. */
const saveByRename = (name: string, content: string): void => {
  const temp = join(dir, `sed${Math.random().toString(36).slice(2, 8)}`)
  writeFileSync(temp, content)
  renameSync(temp, join(dir, name))
}

const server = (version: number): string => `import { emcp, mcpServer } from '${emcpBundle}'
import { word } from './word.js'
const say = emcp({ name: 'say', description: 'Says a word.', input: { type: 'object' } })
export default mcpServer([say], { name: 'renamed', version: '${version}' }).implement({ say: () => word })
`

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'emcp-dev-rename-'))
  writeFileSync(join(dir, 'word.js'), `export const word = 'one'\n`)
  writeFileSync(join(dir, 'server.js'), server(1))
  child = spawn(process.execPath, [join(root, 'bin/emcp.js'), 'dev', join(dir, 'server.js'), '--port', '0'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk
    for (const w of waiting.splice(0)) w()
  })
  child.once('exit', () => {
    for (const w of waiting.splice(0)) w()
  })
  await line(/generation 1 serving/)
}, 60_000)

afterAll(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve))
    child.kill('SIGINT')
    await exited
  }
  rmSync(dir, { recursive: true, force: true })
})

describe('emcp dev, files saved by rename', () => {
  it('reloads on every save by rename of the module and of a file it imports, and on a plain write after them', async () => {
    // each save waits for the reload before the next, so that every one is a burst of its own; the
    // name a reload gives is the last one of its burst, which may be the temporary file's
    saveByRename('server.js', server(2))
    expect(await line(/generation 2 serving/)).toMatch(/changed\)/)
    saveByRename('server.js', server(3))
    expect(await line(/generation 3 serving/)).toMatch(/changed\)/)
    saveByRename('word.js', `export const word = 'two'\n`)
    expect(await line(/generation 4 serving/)).toMatch(/changed\)/)
    saveByRename('word.js', `export const word = 'three'\n`)
    expect(await line(/generation 5 serving/)).toMatch(/changed\)/)
    writeFileSync(join(dir, 'server.js'), server(6))
    expect(await line(/generation 6 serving/)).toMatch(/changed\)/)
  }, 60_000)
})
