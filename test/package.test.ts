/**
 * The package as users get it: `npm pack` the built project, unpack the tarball into a fresh
 * consumer project's node_modules/emcp (so only what package.json `files` ships is there),
 * link emcp's `dependencies` (and typescript, @types/node) from this project's node_modules
 * (no network), then compile the README's quick start against the packed .d.ts files with
 * node16 and bundler resolution, check that a typed mistake fails to compile, run the
 * compiled server and drive it with the official SDK client over stdio, import every
 * subpath in `exports` with plain node, and run the `emcp` bin. A second consumer follows
 * docs/getting-started.md to the letter with TypeScript 7.0 (which, unlike 5.9, loads no
 * `@types` package unless something references it): the doc's tsconfig.json and src/server.ts
 * blocks, `tsc` with no arguments, no skipLibCheck; then the `emcp` command on what it emits.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectStdio, root, texts } from './interop/children.js'
import { run, type Ran } from './support/run.js'



const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  readonly files: ReadonlyArray<string>
  readonly bin: Record<string, string>
  readonly dependencies: Record<string, string>
  readonly exports: Record<string, string | { readonly types: string; readonly import: string }>
}
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
const tsc7 = join(root, 'node_modules', 'typescript7', 'bin', 'tsc')

/** docs/getting-started.md's fenced blocks: the first `json` one with compilerOptions, and the `ts` one that starts `// src/server.ts`. */
const gettingStarted = (() => {
  const doc = readFileSync(join(root, 'docs', 'getting-started.md'), 'utf8')
  const blocks = [...doc.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({ lang: m[1] ?? '', body: m[2] ?? '' }))
  const tsconfig = blocks.find((b) => b.lang === 'json' && b.body.includes('"compilerOptions"'))?.body
  const server = blocks.find((b) => b.lang === 'ts' && b.body.startsWith('// src/server.ts'))?.body
  if (tsconfig === undefined || server === undefined) throw new Error('docs/getting-started.md lost its tsconfig.json or src/server.ts block')
  return { tsconfig, server }
})()
/**
 * Each step's bound, on a hang: the whole file takes about 15 s on a quiet 2-core machine, and
 * several times that beside two busy loops (three tsc runs share what is left of the cores).
 */
const stepMs = 300_000

/** One export each subpath must offer; a subpath added to package.json needs an entry here. */
const expectedExport: Record<string, string> = {
  emcp: 'mcpServer',
  'emcp/stdio': 'serveStdio',
  'emcp/http': 'serveHttp',
  'emcp/fetch': 'toFetchHandler',
  'emcp/workers': 'durableSessions',
  'emcp/hono': 'mcpHono',
  'emcp/express': 'mcpExpress',
  'emcp/fastify': 'mcpFastify',
  'emcp/manifest': 'toManifest',
  'emcp/cli': 'runCli',
  'emcp/postgres': 'fromPostgres',
  'emcp/oauth': 'oauth',
  'emcp/otel': 'otel',
  'emcp/geometry': 'geometryCodecs',
  'emcp/meos': 'meosServer',
  'emcp/redis': 'redisStore',
  'emcp/postgres-store': 'postgresStore',
  'emcp/client': 'connect',
  'emcp/proxy': 'proxy',
  'emcp/openapi': 'fromOpenApi',
}
/** `names` and every package they depend on, as installed at the top of this checkout's node_modules. */
const withTheirs = (names: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const visit = (name: string): void => {
    const manifest = join(root, 'node_modules', name, 'package.json')
    if (seen.has(name) || !existsSync(manifest)) return
    seen.add(name)
    for (const dep of Object.keys((JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: object }).dependencies ?? {})) visit(dep)
  }
  names.forEach(visit)
  return [...seen]
}

const subpaths = Object.keys(pkg.exports)
  .filter((k) => k !== './package.json')
  .map((k) => (k === '.' ? 'emcp' : `emcp/${k.slice(2)}`))

/** The quick start's `add`, in both consumer files. */
const addTs = `const add = emcp({
  name: 'add',
  description: 'Add two numbers.',
  input: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  } as const,
  output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] } as const,
  annotations: { readOnlyHint: true },
})`

// The README's quick start, as a user writes it: schema literals `as const`, one tool with an
// output schema and one without, served over stdio; plus a tool with a `format`, which the
// built-in plain validator leaves to ajv and ajv-formats (so they must load from `dependencies`).
const serverTs = `import { emcp, mcpServer } from 'emcp'
import { serveStdio } from 'emcp/stdio'

${addTs}
const echo = emcp({
  name: 'echo',
  description: 'Echo the text back.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,
})
const mail = emcp({
  name: 'mail',
  description: 'Address a message.',
  input: { type: 'object', properties: { to: { type: 'string', format: 'email' } }, required: ['to'] } as const,
})

const server = mcpServer([add, echo, mail], { name: 'consumer', version: '1.0.0' }).implement({
  add: ({ a, b }) => ({ sum: a + b }),
  echo: ({ text }) => text,
  mail: ({ to }) => \`to \${to}\`,
})

await serveStdio(server)
`

// The handler returns { total } where the output schema requires { sum }.
const wrongTs = `import { emcp, mcpServer } from 'emcp'

${addTs}

export const server = mcpServer([add], { name: 'wrong', version: '1.0.0' }).implement({
  add: ({ a, b }) => ({ total: a + b }),
})
`

// Every subpath's types, so that the bundler check covers them all.
const subpathsTs =
  subpaths.map((s, i) => `import * as m${i} from '${s}'`).join('\n') + `\nexport const all = [${subpaths.map((_, i) => `m${i}`).join(', ')}]\n`

// Plain node, no TypeScript: each subpath imported as a consumer's ES module would.
const importsMjs = `const out = {}
for (const s of ${JSON.stringify(subpaths)}) out[s] = Object.keys(await import(s)).sort()
console.log(JSON.stringify(out))
`

// No skipLibCheck: the shipped .d.ts files are checked too, as they are for users without it.
// typeRoots: the consumer's own @types only; by default tsc also takes every node_modules/@types
// of the folders above it, so a stray one in the temporary folder's parents would be compiled too
const tsconfig = (module: string, moduleResolution: string, files: ReadonlyArray<string>, emit: boolean, extra: object = {}): string =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module,
      moduleResolution,
      strict: true,
      typeRoots: ['./node_modules/@types'],
      ...(emit ? { outDir: 'dist' } : { noEmit: true }),
      ...extra,
    },
    files,
  })
// Stricter than the defaults, as some users are: no DOM lib (the packed types must make do
// with @types/node), exact optional properties, unchecked index access.
const stricter = { lib: ['ES2022'], exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, verbatimModuleSyntax: true }

describe('the packed package in a fresh consumer project', () => {
  let tmp = ''
  let consumer = ''
  let packed: ReadonlyArray<string> = []
  let compiled: {
    readonly node16: Promise<Ran>
    readonly bundler: Promise<Ran>
    readonly wrong: Promise<Ran>
    readonly ts7: Promise<Ran>
    readonly wrong7: Promise<Ran>
  }
  let consumer7 = ''

  beforeAll(async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'emcp-package-')))
    consumer = join(tmp, 'consumer')
    // --ignore-scripts: dist/ is already built by `npm test`; --offline: packing needs no network.
    // A code cache that a start wrote beside the core (scripts/core-shim.js) is this machine's,
    // never the package's: one is put there for the pack to leave out.
    const probe = join(root, 'dist', 'bundle', `probe-${process.pid}.v8cache`)
    writeFileSync(probe, 'not a cache')
    const pack = await run('npm', ['pack', '--json', '--ignore-scripts', '--offline', '--pack-destination', tmp], root, 120_000).finally(() => rmSync(probe, { force: true }))
    if (pack.code !== 0) throw new Error(`npm pack failed (${pack.code}):\n${pack.stderr}`)
    const [info] = JSON.parse(pack.stdout) as ReadonlyArray<{ readonly filename: string; readonly files: ReadonlyArray<{ readonly path: string }> }>
    if (info === undefined) throw new Error(`npm pack printed no package:\n${pack.stdout}`)
    packed = info.files.map((f) => f.path)
    const emcpDir = join(consumer, 'node_modules', 'emcp')
    mkdirSync(emcpDir, { recursive: true })
    const untar = await run('tar', ['-xzf', join(tmp, info.filename), '-C', emcpDir, '--strip-components=1'], tmp, 120_000)
    if (untar.code !== 0) throw new Error(`tar failed (${untar.code}):\n${untar.stderr}`)
    // the optional peers emcp/otel, emcp/client, emcp/proxy and emcp/openapi need, as a user of those subpaths installs them (consumer7 goes without)
    for (const name of [...Object.keys(pkg.dependencies), '@types/node', 'typescript', '@opentelemetry/api', '@modelcontextprotocol/client', '@readme/openapi-parser']) {
      const link = join(consumer, 'node_modules', name)
      mkdirSync(dirname(link), { recursive: true })
      symlinkSync(join(root, 'node_modules', name), link, 'dir')
    }
    const write = (file: string, text: string): void => writeFileSync(join(consumer, file), text)
    write('package.json', JSON.stringify({ type: 'module' }))
    write('server.ts', serverTs)
    write('wrong.ts', wrongTs)
    write('subpaths.ts', subpathsTs)
    write('imports.mjs', importsMjs)
    write('tsconfig.json', tsconfig('node16', 'node16', ['server.ts', 'subpaths.ts'], true))
    write('tsconfig.bundler.json', tsconfig('preserve', 'bundler', ['server.ts', 'subpaths.ts'], false, stricter))
    write('tsconfig.wrong.json', tsconfig('node16', 'node16', ['wrong.ts'], false))
    // the getting-started consumer on TypeScript 7: `typescript` is the 7.0 package there
    consumer7 = join(tmp, 'consumer7')
    // the dependencies and theirs (ajv is imported statically now: its own dependencies must resolve from here too)
    for (const name of [...withTheirs(Object.keys(pkg.dependencies)), '@types/node', 'emcp']) {
      const link = join(consumer7, 'node_modules', name)
      mkdirSync(dirname(link), { recursive: true })
      symlinkSync(name === 'emcp' ? emcpDir : join(root, 'node_modules', name), link, 'dir')
    }
    symlinkSync(join(root, 'node_modules', 'typescript7'), join(consumer7, 'node_modules', 'typescript'), 'dir')
    writeFileSync(join(consumer7, 'package.json'), JSON.stringify({ type: 'module' }))
    writeFileSync(join(consumer7, 'tsconfig.json'), gettingStarted.tsconfig)
    mkdirSync(join(consumer7, 'src'))
    writeFileSync(join(consumer7, 'src', 'server.ts'), gettingStarted.server)
    // the compilations run side by side; each test awaits its own
    const compile = (config: string, extra: ReadonlyArray<string> = [], compiler = tsc): Promise<Ran> =>
      run(process.execPath, [compiler, '-p', config, '--pretty', 'false', ...extra], consumer)
    compiled = {
      node16: compile('tsconfig.json', ['--listFiles']),
      bundler: compile('tsconfig.bundler.json'),
      wrong: compile('tsconfig.wrong.json'),
      ts7: run(process.execPath, [join(consumer7, 'node_modules', 'typescript', 'bin', 'tsc'), '--pretty', 'false'], consumer7),
      wrong7: compile('tsconfig.wrong.json', [], tsc7),
    }
  }, stepMs)

  afterAll(async () => {
    // let a compilation still running end before its files go
    if (compiled !== undefined) await Promise.all(Object.values(compiled))
    if (tmp !== '') rmSync(tmp, { recursive: true, force: true })
  }, stepMs)

  it('the tarball holds only the `files` list, and every `exports` and `bin` target is in it', () => {
    // a `files` entry is a path (a folder ships whole) or a glob (`**` any folders, `*` any name part;
    // `**/` is set aside while `*` is replaced, or its `.*` would become `.[^/]*`: one folder deep only)
    const patterns = pkg.files.filter((f) => !f.startsWith('!')).map((f) =>
      f.includes('*') ? new RegExp(`^${f.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '(?:.*/)?')}$`) : new RegExp(`^${f.replace(/[.+?^${}()|[\]\\]/g, '\\$&')}(?:/.*)?$`),
    )
    const allowed = (p: string): boolean => p === 'package.json' || patterns.some((re) => re.test(p))
    expect(packed.filter((p) => !allowed(p))).toEqual([])
    // the core's script ships; no code cache and no half-written one does
    expect(packed.filter((p) => p.endsWith('.script.js'))).toHaveLength(1)
    expect(packed.filter((p) => p.endsWith('.v8cache') || p.endsWith('.tmp'))).toEqual([])
    expect(packed.some((p) => p.startsWith('src/') || p.startsWith('test/') || p.startsWith('dist/examples/'))).toBe(false)
    // the compiled sources are not shipped: the bundles are what runs, the .d.ts files what types
    expect(packed.filter((p) => p.startsWith('dist/src/') && !p.endsWith('.d.ts'))).toEqual([])
    const targets = Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [t] : [t.types, t.import]))
    for (const t of [...targets, ...Object.values(pkg.bin)]) {
      const path = t.replace(/^\.\//, '')
      expect(packed, t).toContain(path)
      expect(existsSync(join(consumer, 'node_modules', 'emcp', path)), t).toBe(true)
    }
  }, stepMs)

  it('the quick start compiles cleanly with node16 resolution, its types read from the packed .d.ts files', async () => {
    const r = await compiled.node16
    const files = r.stdout.split('\n').map((l) => l.trim())
    const errors = files.filter((l) => /error TS\d+/.test(l))
    expect(errors, r.stderr).toEqual([])
    expect(r.code).toBe(0)
    const packedTypes = join(consumer, 'node_modules', 'emcp', 'dist', 'src')
    expect(files).toContain(join(packedTypes, 'index.d.ts'))
    expect(files).toContain(join(packedTypes, 'transport', 'stdio.d.ts'))
    // nothing from the project's own sources or build
    expect(files.filter((f) => f.startsWith(join(root, 'src')) || f.startsWith(join(root, 'dist')))).toEqual([])
    expect(existsSync(join(consumer, 'dist', 'server.js'))).toBe(true)
  }, stepMs)

  it('the quick start and every subpath compile cleanly with bundler resolution and stricter options', async () => {
    const r = await compiled.bundler
    expect(r.stdout + r.stderr).toBe('')
    expect(r.code).toBe(0)
  }, stepMs)

  it('a handler returning { total } where the output schema requires sum does not compile', async () => {
    const r = await compiled.wrong
    expect(r.code).not.toBe(0)
    const errors = r.stdout.split('\n').filter((l) => /error TS\d+/.test(l))
    expect(errors).toHaveLength(1)
    const line = wrongTs.split('\n').findIndex((l) => l.includes('total: a + b')) + 1
    expect(errors[0]).toMatch(new RegExp(`^wrong\\.ts\\(${line},\\d+\\): error TS2322: Type '\\{ total: number; \\}' is not assignable`))
    expect(r.stdout).toMatch(/Property 'sum' is missing/)
  }, stepMs)

  it('every shipped .d.ts that uses Node types says so: `/// <reference types="node" />`', () => {
    const dts = packed.filter((p) => p.endsWith('.d.ts'))
    // node: modules, and the globals lib.es2022 lacks (TypeScript 7 loads no @types package unless referenced)
    const usesNode = /from ['"]node:|import\(['"]node:|\bAbortSignal\b|\bAbortController\b|\bNodeJS\.|\bBuffer\b/
    const users = dts.filter((p) => usesNode.test(readFileSync(join(consumer, 'node_modules', 'emcp', p), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')))
    expect(users.length).toBeGreaterThan(0)
    const without = users.filter((p) => !readFileSync(join(consumer, 'node_modules', 'emcp', p), 'utf8').includes('/// <reference types="node"'))
    expect(without).toEqual([])
  }, stepMs)

  it('TypeScript 7: the getting-started consumer compiles with `tsc`, its tsconfig and src/server.ts taken from the doc', async () => {
    const r = await compiled.ts7
    expect(r.stdout + r.stderr).toBe('')
    expect(r.code).toBe(0)
    // sources in src/, rootDir src: src/server.ts is dist/server.js, the path the emcp command names for it
    expect(existsSync(join(consumer7, 'dist', 'server.js'))).toBe(true)
    const bin = join('node_modules', 'emcp', pkg.bin['emcp'] ?? '')
    const refused = await run(process.execPath, [bin, 'list', 'src/server.ts'], consumer7)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('src/server.ts is TypeScript: compile it (npx tsc) and give the .js module: dist/server.js')
    // the doc's module serves at top level and default-exports the server: emcp lists it and exits
    const listed = await run(process.execPath, [bin, 'list', 'dist/server.js'], consumer7)
    expect(listed.stderr).toMatch(/^2 tools, listing/)
    expect(listed.stdout).toMatch(/^add\b[\s\S]*^greet\b/m)
    expect(listed.code).toBe(0)
    // the tsconfig has no skipLibCheck: emcp's own .d.ts files were checked too
    expect(JSON.parse(gettingStarted.tsconfig).compilerOptions.skipLibCheck).toBeUndefined()
  }, stepMs)

  it('TypeScript 7 rejects the handler returning { total } on the same line as 5.9', async () => {
    const [r5, r7] = await Promise.all([compiled.wrong, compiled.wrong7])
    const where = (r: Ran): ReadonlyArray<string> => r.stdout.split('\n').filter((l) => /error TS\d+/.test(l)).map((l) => l.slice(0, l.indexOf(':')))
    expect(r7.code).not.toBe(0)
    expect(where(r7)).toEqual(where(r5))
    expect(where(r7)).toHaveLength(1)
  }, stepMs)

  it('the compiled server answers the official SDK client over stdio', async () => {
    expect((await compiled.node16).code).toBe(0)
    const c = await connectStdio(join(consumer, 'dist', 'server.js'), [])
    try {
      expect(c.client.getServerVersion()).toMatchObject({ name: 'consumer', version: '1.0.0' })
      expect(c.client.getServerCapabilities()?.tools).toBeDefined()
      const { tools } = await c.client.listTools()
      expect(tools.map((t) => t.name)).toEqual(['add', 'echo', 'mail'])
      expect(tools[0]).toMatchObject({
        name: 'add',
        description: 'Add two numbers.',
        inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
        outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
        annotations: { readOnlyHint: true },
      })
      const sum = await c.client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })
      expect(sum.isError ?? false).toBe(false)
      expect(sum.structuredContent).toEqual({ sum: 5 })
      expect(texts(sum.content)).toEqual(['{"sum":5}'])
      const echo = await c.client.callTool({ name: 'echo', arguments: { text: 'hi' } })
      expect(texts(echo.content)).toEqual(['hi'])
      const mail = await c.client.callTool({ name: 'mail', arguments: { to: 'a@example.com' } })
      expect(mail.isError ?? false, texts(mail.content).join('\n') + c.output()).toBe(false)
      expect(texts(mail.content)).toEqual(['to a@example.com'])
      const notMail = await c.client.callTool({ name: 'mail', arguments: { to: 'nobody' } })
      expect(notMail.isError).toBe(true)
      expect(texts(notMail.content).join('\n')).toMatch(/\/to\b.*email|email.*\/to\b/s)
      // 2025-11-25: input validation errors are tool execution errors (isError), so the model can correct them
      const bad = await c.client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } })
      expect(bad.isError).toBe(true)
      expect(bad.structuredContent).toBeUndefined()
      expect(texts(bad.content).join('\n')).toMatch(/\/a\b/)
      // an unknown tool is a protocol error, -32602
      const unknown = c.client.callTool({ name: 'mul', arguments: { a: 2, b: 3 } })
      await expect(unknown).rejects.toBeInstanceOf(McpError)
      await expect(unknown).rejects.toMatchObject({ code: ErrorCode.InvalidParams })
    } finally {
      await c.dispose()
    }
  }, stepMs)

  it('every subpath in `exports` imports with plain node', async () => {
    expect(subpaths.slice().sort()).toEqual(Object.keys(expectedExport).sort())
    const r = await run(process.execPath, ['imports.mjs'], consumer)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const names = JSON.parse(r.stdout) as Record<string, ReadonlyArray<string>>
    for (const s of subpaths) expect(names[s], s).toContain(expectedExport[s])
    expect(names['emcp']).toContain('emcp')
  }, stepMs)

  it('without the optional peer @opentelemetry/api, importing emcp/otel says to install it; emcp itself still loads', async () => {
    // --preserve-symlinks: emcp's imports resolve from consumer7/node_modules, where the peer is not (the real
    // folder of the unpacked emcp is in the first consumer, which has it)
    const code = "await import('emcp'); await import('emcp/otel')"
    const r = await run(process.execPath, ['--preserve-symlinks', '--input-type=module', '-e', code], consumer7)
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/emcp\/otel needs the package @opentelemetry\/api .*npm install @opentelemetry\/api/)
  }, stepMs)

  it('without the optional peers, importing emcp/proxy or emcp/openapi says what to install; emcp itself still loads', async () => {
    for (const [subpath, peer] of [['emcp/proxy', '@modelcontextprotocol/client'], ['emcp/openapi', '@readme/openapi-parser']] as const) {
      const code = `await import('emcp'); await import('${subpath}')`
      const r = await run(process.execPath, ['--preserve-symlinks', '--input-type=module', '-e', code], consumer7)
      expect(r.code).not.toBe(0)
      expect(r.stderr).toContain(`${subpath} needs the package ${peer} (an optional peer dependency of emcp): install it with npm install ${peer}`)
    }
  }, stepMs)

  it('the emcp bin runs: --help exits 0 with the usage', async () => {
    const bin = join('node_modules', 'emcp', pkg.bin['emcp'] ?? '')
    const r = await run(process.execPath, [bin, '--help'], consumer)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Usage: emcp <command>/)
    expect(r.stdout).toContain('serve')
  }, stepMs)
})
