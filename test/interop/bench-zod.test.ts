/**
 * The zod rows of the benches, as code (not timed): `npm run bench`'s emcp zod server
 * (bench/servers/emcp-zod.mjs) serves `add` with SDK v1's zod schemas beside the SDK v1 bench
 * server, driven by the official client over stdio; and `npm run bench:types`'s emcp zod file
 * carries the SDK file's zod schemas, the same text, and compiles against the built package.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pathToFileURL } from 'node:url'
import { connectStdio, root, texts, type Connection } from './children.js'

type Spec = { readonly name: string }
// the bench generators are plain ES modules without types: loaded by path, typed here
const gen = (await import(pathToFileURL(join(root, 'bench', 'types-gen.mjs')).href)) as {
  emcpZodFile: (specs: ReadonlyArray<Spec>, objects?: boolean) => string
  sdkFile: (specs: ReadonlyArray<Spec>) => string
  toolSpec: (i: number) => Spec
  zodInputShape: (s: Spec) => string
  zodOutputShape: (s: Spec) => string
}

describe('npm run bench: emcp with zod beside SDK v1 with zod, over stdio', () => {
  let zod: Connection
  let sdk: Connection

  beforeAll(async () => {
    ;[zod, sdk] = await Promise.all([
      connectStdio(join(root, 'bench', 'servers', 'emcp-zod.mjs'), ['stdio'], { TOOLS: '3' }),
      connectStdio(join(root, 'bench', 'servers', 'sdk1-stdio.mjs'), [], { TOOLS: '3' }),
    ])
  })

  afterAll(async () => {
    await Promise.all([zod?.dispose(), sdk?.dispose()])
  })

  it('lists add with the argument properties SDK v1 lists for the same zod schemas, and the filler tools', async () => {
    const [z, s] = await Promise.all([zod.client.listTools(), sdk.client.listTools()])
    expect(z.tools.map((t) => t.name)).toEqual(['add', 'tool_0000', 'tool_0001', 'tool_0002'])
    const [za, sa] = [z.tools[0], s.tools.find((t) => t.name === 'add')]
    expect(za?.inputSchema.properties).toEqual(sa?.inputSchema.properties)
    expect(za?.inputSchema.required).toEqual(['a', 'b'])
    expect(za?.inputSchema.required).toEqual(sa?.inputSchema.required)
    expect(za?.outputSchema?.properties).toEqual(sa?.outputSchema?.properties)
    expect(za?.outputSchema?.required).toEqual(sa?.outputSchema?.required)
  })

  it('answers add as every bench server does, and refuses a string with zod\'s message', async () => {
    const r = await zod.client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })
    expect(r).toMatchObject({ content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 } })
    const bad = await zod.client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } })
    expect(bad.isError).toBe(true)
    expect(texts(bad.content)).toEqual(['Invalid arguments for tool add: /a: Invalid input: expected number, received string'])
  })
})

describe('npm run bench:types: the emcp zod file', () => {
  const specs = Array.from({ length: 12 }, (_, i) => gen.toolSpec(i))
  const zodFile = gen.emcpZodFile(specs)
  const objectFile = gen.emcpZodFile(specs, true)
  const sdk = gen.sdkFile(specs)

  it('carries the SDK file\'s zod schemas: the very raw shapes, and in the second file each shape in z.object(...)', () => {
    for (const s of specs) {
      expect(sdk).toContain(`inputSchema: ${gen.zodInputShape(s)},`)
      expect(zodFile).toContain(`input: ${gen.zodInputShape(s)},`)
      expect(objectFile).toContain(`input: z.object(${gen.zodInputShape(s)}),`)
      expect(sdk).toContain(`outputSchema: ${gen.zodOutputShape(s)},`)
      expect(zodFile).toContain(`output: ${gen.zodOutputShape(s)},`)
      expect(objectFile).toContain(`output: z.object(${gen.zodOutputShape(s)}),`)
    }
  })

  it.each([['shapes', false], ['z.object', true]] as const)('compiles cleanly against the built package with %s (strict, as the bench checks it)', (_, objects) => {
    const zodFile = gen.emcpZodFile(specs, objects)
    const dir = join(root, '.cache', `bench-zod-${process.pid}`)
    mkdirSync(dir, { recursive: true })
    try {
      const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], types: ['node'], strict: true, skipLibCheck: true, noEmit: true }
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['server.ts'] }))
      writeFileSync(join(dir, 'server.ts'), zodFile)
      const run = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: root, encoding: 'utf8' })
      expect(`${run.stdout}${run.stderr}`).toBe('')
      expect(run.status).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
