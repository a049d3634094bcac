/**
 * The core's code cache (scripts/core-shim.js): on Node the built core runs as a script
 * compiled through a V8 code cache, written beside it by the first start and read by the next.
 * Each test works on its own copy of dist/bundle (./code-cache-child.ts). What a read refuses,
 * part by part of the file: ./code-cache-check.test.ts.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, watch, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { root } from './children.js'
import { answerOf, caches, call, copy, leftovers, run, sum } from './code-cache-child.js'

describe('the core code cache', () => {
  it('is written by the first start and read, not written again, by the next', async () => {
    const folder = copy()
    expect(caches(folder).size).toBe(0)
    const first = await run(folder)
    expect(answerOf(first.stdout)).toMatchObject(sum)
    expect(first.stderr).toBe('')
    const written = caches(folder)
    expect(written.size).toBe(1)
    const [name] = [...written.keys()]
    expect(name).toMatch(/^chunk-\w+\.script\.js\.v\d+\.\d+\.\d+-\w+-\w+\.v8cache$/)
    expect(statSync(join(folder, 'bundle', name!)).size).toBeGreaterThan(10_000)

    const second = await run(folder)
    expect(answerOf(second.stdout)).toMatchObject(sum)
    expect(second.stderr).toBe('')
    // V8 took it: a refused cache is written again at exit, as a new file
    expect(caches(folder)).toEqual(written)
    expect(leftovers(folder)).toEqual([])
  })

  it('is refused by V8 when damaged, the server answers all the same, and a good one replaces it', async () => {
    const folder = copy()
    await run(folder)
    const [name] = [...caches(folder).keys()]
    const file = join(folder, 'bundle', name!)
    const good = readFileSync(file)
    // the same length, every byte after the header changed
    const damaged = Buffer.from(good.map((byte, i) => (i < 32 ? byte : byte ^ 0x5a)))
    writeFileSync(file, damaged)
    const before = caches(folder)
    const after = await run(folder)
    expect(answerOf(after.stdout)).toMatchObject(sum)
    expect(after.stderr).toBe('')
    expect(caches(folder).get(name!)).not.toBe(before.get(name!))
    // and the replacement is taken
    const kept = caches(folder)
    await run(folder)
    expect(caches(folder)).toEqual(kept)
  })

  it('is refused when cut short', async () => {
    const folder = copy()
    await run(folder)
    const [name] = [...caches(folder).keys()]
    const file = join(folder, 'bundle', name!)
    writeFileSync(file, readFileSync(file).subarray(0, 100))
    const after = await run(folder)
    expect(answerOf(after.stdout)).toMatchObject(sum)
    expect(statSync(file).size).toBeGreaterThan(100)
  })

  it('keeps one file per set of Node options', async () => {
    const folder = copy()
    await run(folder)
    await run(folder, { nodeArgs: ['--stack-size=900'] })
    expect(caches(folder).size).toBe(2)
  })

  it('keys by V8 options only: programs given with -e share one cache', async () => {
    const folder = copy()
    for (const n of [1, 2, 3]) {
      // a different program text each time, as a tool starting `node -e` would give
      const out = await run(folder, { nodeArgs: ['--input-type=module', '-e', `await import('./child.js') // ${n}`] })
      expect(answerOf(out.stdout)).toMatchObject(sum)
    }
    expect(caches(folder).size).toBe(1)
  })

  it('keeps at most eight caches beside the script, the least recently written going first, and clears a stale temporary file', async () => {
    const folder = copy()
    await run(folder)
    const [name] = [...caches(folder).keys()]
    const file = join(folder, 'bundle', name!)
    const base = name!.slice(0, name!.indexOf('.script.js.') + '.script.js.'.length)
    // nine caches of other (made up) Node versions, oldest first, and a temporary file from a killed writer
    const made = Array.from({ length: 9 }, (_, i) => join(folder, 'bundle', `${base}v0.0.${i}-x64-abc.v8cache`))
    made.forEach((path, i) => {
      writeFileSync(path, readFileSync(file))
      utimesSync(path, new Date(2000, 0, 1 + i), new Date(2000, 0, 1 + i))
    })
    const stale = join(folder, 'bundle', `${name!}.1-x.tmp`)
    writeFileSync(stale, 'half')
    utimesSync(stale, new Date(2000, 0, 1), new Date(2000, 0, 1))
    // the cache of this Node goes: the next start writes it again, and makes room first
    rmSync(file)
    await run(folder)
    const left = [...caches(folder).keys()]
    expect(left).toHaveLength(8)
    expect(left).toContain(name)
    // the two oldest made-up ones went
    expect(existsSync(made[0]!)).toBe(false)
    expect(existsSync(made[1]!)).toBe(false)
    expect(existsSync(made[8]!)).toBe(true)
    expect(existsSync(stale)).toBe(false)
  })

  it('is neither read nor written under EMCP_CODE_CACHE=off, which imports the ES module', async () => {
    const folder = copy()
    const off = await run(folder, { env: { EMCP_CODE_CACHE: 'off' } })
    expect(answerOf(off.stdout)).toMatchObject(sum)
    expect(caches(folder).size).toBe(0)
    const trace = await run(folder, { args: ['throw'], env: { EMCP_CODE_CACHE: 'off' } })
    expect(JSON.parse(trace.stdout).stack).toMatch(/bundle[\\/]core-\w+\.js/)
  })

  it('steps aside under --enable-source-maps, so that stack traces point into the sources', async () => {
    const folder = copy()
    const mapped = await run(folder, { args: ['throw'], nodeArgs: ['--enable-source-maps'] })
    const { stack } = JSON.parse(mapped.stdout) as { stack: string }
    expect(stack).toContain('duplicate tool name: add')
    expect(stack).toMatch(/src[\\/]server[\\/]server\.ts:\d+/)
    expect(caches(folder).size).toBe(0)
    // without it, the same error comes from the script
    const plain = await run(folder, { args: ['throw'] })
    expect(JSON.parse(plain.stdout).stack).toMatch(/\.script\.js:\d+:\d+/)
  })

  it('leaves no cache and no trace when it cannot be written', async () => {
    const folder = copy()
    await run(folder)
    const [name] = [...caches(folder).keys()]
    // a folder where the cache file would go: the rename fails (as in a read-only folder)
    rmSync(join(folder, 'bundle', name!))
    mkdirSync(join(folder, 'bundle', name!))
    writeFileSync(join(folder, 'bundle', name!, 'keep'), '')
    const blocked = await run(folder)
    expect(answerOf(blocked.stdout)).toMatchObject(sum)
    expect(blocked.stderr).toBe('')
    expect(leftovers(folder)).toEqual([])
  })

  it('falls back to the ES module when the script is not beside the shim (a bundled copy)', async () => {
    const folder = copy()
    for (const name of readdirSync(join(folder, 'bundle')).filter((n) => n.endsWith('.script.js'))) rmSync(join(folder, 'bundle', name))
    const fallback = await run(folder)
    expect(answerOf(fallback.stdout)).toMatchObject(sum)
    expect(fallback.stderr).toBe('')
    expect(caches(folder).size).toBe(0)
  })

  it('answers a tool error the same way through the script and through the ES module', async () => {
    const folder = copy()
    const negative = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: -1, b: 3 } } })
    const one = (env: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        const c = spawn(process.execPath, [join(folder, 'child.js')], { cwd: folder, env: { ...process.env, NODE_OPTIONS: '', ...env }, timeout: 60_000 })
        let out = ''
        c.stdout.setEncoding('utf8').on('data', (s: string) => {
          out += s
          if (out.includes('\n')) c.stdin.end()
        })
        c.on('error', reject)
        c.on('close', () => resolve(out.split('\n')[0]!))
        c.stdin.write(`${negative}\n`)
      })
    const viaScript = await one({})
    const viaModule = await one({ EMCP_CODE_CACHE: 'off' })
    expect(JSON.parse(viaScript)).toMatchObject({ id: 1, result: { isError: true } })
    expect(viaScript).toBe(viaModule)
  })

  it('has several first starts at once each answer, leaving one good cache and no temporary file', async () => {
    const folder = copy()
    const starts = await Promise.all([run(folder), run(folder), run(folder), run(folder)])
    for (const s of starts) expect(answerOf(s.stdout)).toMatchObject(sum)
    expect(caches(folder).size).toBe(1)
    expect(leftovers(folder)).toEqual([])
    const kept = caches(folder)
    await run(folder)
    expect(caches(folder)).toEqual(kept)
  })
})

/** Runs the child serving in `folder` (under `nodeArgs`), and ends its input only once `written()` holds (a cache was written while it served), or after 60 s. */
const runUntil = (folder: string, written: () => boolean, nodeArgs: string[] = []): Promise<{ stdout: string; written: boolean }> =>
  new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [...nodeArgs, join(folder, 'child.js')], { cwd: folder, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let seen = false
    const watcher = watch(join(folder, 'bundle'), () => {
      let now = false
      try {
        now = written()
      } catch {
        // a file went between the listing and its stat: the next event looks again
      }
      if (now) finish(true)
    })
    const timer = setTimeout(() => finish(false), 60_000)
    const finish = (done: boolean): void => {
      seen ||= done
      watcher.close()
      clearTimeout(timer)
      c.stdin.end()
    }
    c.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s))
    c.on('error', reject)
    c.on('close', () => resolve({ stdout, written: seen }))
    c.stdin.write(`${call}\n`)
  })

describe('a cache written while the server runs', () => {
  it.each([
    ['', []],
    // the shim waits on V8's clock (Atomics.waitAsync); without it, on a timer
    [' (without Atomics.waitAsync)', ['--import', 'data:text/javascript,delete Atomics.waitAsync']],
  ])('is written by a first start that keeps serving a second after loading, not only at its exit%s', async (_, nodeArgs) => {
    const folder = copy()
    const served = await runUntil(folder, () => caches(folder).size > 0, nodeArgs)
    expect(answerOf(served.stdout)).toMatchObject(sum)
    expect(served.written).toBe(true)
    expect(leftovers(folder)).toEqual([])
    // one cache, and the next start takes it
    const kept = caches(folder)
    expect(kept.size).toBe(1)
    await run(folder, { nodeArgs })
    expect(caches(folder)).toEqual(kept)
  })

  it('grows when a later server has compiled a tenth more by its first second', async () => {
    const folder = copy()
    // builds a server and exits at once: the cache holds little more than the core's top level
    await run(folder, { args: ['throw'] })
    const [name] = [...caches(folder).keys()]
    const small = statSync(join(folder, 'bundle', name!)).size
    const before = caches(folder).get(name!)
    const served = await runUntil(folder, () => {
      const now = caches(folder).get(name!)
      return now !== undefined && now !== before
    })
    expect(answerOf(served.stdout)).toMatchObject(sum)
    expect(served.written).toBe(true)
    expect(statSync(join(folder, 'bundle', name!)).size).toBeGreaterThan(small * 1.1)
    // and a start after it takes the larger one (a refused cache would be written again at exit)
    const kept = caches(folder)
    await run(folder)
    expect(caches(folder)).toEqual(kept)
  })
})

describe('the shim', () => {
  it('exports what the ES module of the same core exports, by name and kind', async () => {
    const folder = copy()
    const compare = `
      const shim = await import('./bundle/index.js')
      const names = (await import('node:fs')).readdirSync('./bundle').filter((n) => /^core-\\w+\\.js$/.test(n))
      const core = await import('./bundle/' + names[0])
      const shimCore = await import('./bundle/' + names[0].replace('core-', 'chunk-'))
      const kinds = (m) => Object.fromEntries(Object.keys(m).sort().map((k) => [k, typeof m[k]]))
      process.stdout.write(JSON.stringify({ same: JSON.stringify(kinds(core)) === JSON.stringify(kinds(shimCore)), count: Object.keys(core).length, emcp: typeof shim.emcp }))
    `
    writeFileSync(join(folder, 'compare.js'), compare)
    const out = await new Promise<string>((resolve, reject) => {
      const c = spawn(process.execPath, [join(folder, 'compare.js')], { cwd: folder, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 })
      let text = ''
      c.stdout.setEncoding('utf8').on('data', (s: string) => (text += s))
      c.on('error', reject)
      c.on('close', () => resolve(text))
    })
    const result = JSON.parse(out) as { same: boolean; count: number; emcp: string }
    expect(result.same).toBe(true)
    expect(result.count).toBeGreaterThan(100)
    expect(result.emcp).toBe('function')
  })

  it.each([
    ['index.js', 'src/index.js'],
    ['stdio.js', 'src/transport/stdio.js'],
    ['manifest.js', 'src/sources/manifest/index.js'],
  ])('%s, an entry that only re-exported core names and is a shim itself, exports what its source does, from the one core', async (entry, source) => {
    const folder = copy()
    const check = `
      const names = (m) => Object.keys(m).sort().join(',')
      const built = await import('./bundle/${entry}')
      const compiled = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', source)).href)})
      const barrel = await import('./bundle/index.js')
      const shared = Object.keys(built).filter((k) => k in barrel)
      process.stdout.write(JSON.stringify({ same: names(built) === names(compiled), count: Object.keys(built).length, shared: shared.length, one: shared.every((k) => built[k] === barrel[k]) }))
    `
    writeFileSync(join(folder, 'check.js'), check)
    for (const env of [{}, { EMCP_CODE_CACHE: 'off' }]) {
      const out = await new Promise<string>((resolve, reject) => {
        const c = spawn(process.execPath, [join(folder, 'check.js')], { cwd: folder, env: { ...process.env, NODE_OPTIONS: '', ...env }, timeout: 60_000 })
        let text = ''
        c.stdout.setEncoding('utf8').on('data', (s: string) => (text += s))
        c.on('error', reject)
        c.on('close', () => resolve(text))
      })
      const result = JSON.parse(out) as { same: boolean; count: number; shared: number; one: boolean }
      expect(result.same, JSON.stringify(env)).toBe(true)
      expect(result.count).toBeGreaterThan(0)
      // the barrel shares fromManifest and more with manifest.js, serveStdio and startStdio with
      // stdio.js: the same values, so one core
      if (entry === 'manifest.js' || entry === 'stdio.js') expect(result.shared).toBeGreaterThan(0)
      expect(result.one).toBe(true)
    }
  })
})
