/**
 * What a server loads before its first answer: the built bench example, in a fresh process,
 * answers initialize (2025-11-25) without loading Web Crypto, which only request states
 * (2026-07-28) and the shared hub's bus messages need, on first use (sealing with the key
 * made then: test/protocol/2026-07-28/request-state*.test.ts); nor node:crypto, which only
 * digests need; nor a JSON Schema engine (Ajv, @cfworker/json-schema), which only schemas the
 * plain fast path cannot check need: the child refuses to import them, so a static import
 * anywhere in the bundles fails the start. And how many files that is: each costs Node's loader
 * a resolve, a read and a link, so the core comes in few chunks, without the io-ts codecs it
 * never uses.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { example, root } from './children.js'

const run = promisify(execFile)

/** Builds the bench server with `tools` filler tools in a fresh process, answers `line`, and reports the answer and what was loaded. */
const firstAnswer = async (tools: number, line: string): Promise<{ answer: unknown; webCrypto: boolean; nodeCrypto: boolean }> => {
  const script = `
    const { register } = await import('node:module')
    register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(refuseEngines)}`)})
    const { benchServer } = await import(${JSON.stringify(pathToFileURL(example('bench')).href)})
    const { newSession } = await import(${JSON.stringify(pathToFileURL(`${root}dist/bundle/index.js`).href)})
    await import(${JSON.stringify(pathToFileURL(`${root}dist/bundle/stdio.js`).href)})
    const server = benchServer(${tools})
    const out = await server.answerText(${JSON.stringify(line)}, newSession())
    const loaded = process.moduleLoadList
    process.stdout.write(JSON.stringify({ answer: JSON.parse(out.value), webCrypto: loaded.some((m) => m.includes('webcrypto')), nodeCrypto: loaded.includes('NativeModule crypto') }))
  `
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root, timeout: 60_000 })
  return JSON.parse(stdout) as { answer: unknown; webCrypto: boolean; nodeCrypto: boolean }
}

/** A module hook that refuses to import the schema engines: a static import of one fails the child. */
const refuseEngines = `
  export async function resolve(specifier, context, next) {
    if (/^(ajv|ajv-formats|@cfworker\\/json-schema)(\\/|$)/.test(specifier)) throw new Error('imported at startup: ' + specifier)
    return next(specifier, context)
  }
`

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })

describe('startup of the built bench example', () => {
  it.each([0, 2000])('answers initialize with %i filler tools without loading Web Crypto, node:crypto or a schema engine', async (tools) => {
    const { answer, webCrypto, nodeCrypto } = await firstAnswer(tools, initialize)
    expect(answer).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'bench' } } })
    expect(webCrypto).toBe(false)
    expect(nodeCrypto).toBe(false)
  })

  it('answers a call of add, checked by the plain fast path, without a schema engine', async () => {
    const { answer } = await firstAnswer(0, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } }))
    expect(answer).toMatchObject({ id: 1, result: { structuredContent: { sum: 5 } } })
  })

  it('refuses an engine import in the child (the hook works): the fetch entry imports the walker statically', async () => {
    const script = `
      const { register } = await import('node:module')
      register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(refuseEngines)}`)})
      await import(${JSON.stringify(pathToFileURL(`${root}dist/bundle/fetch.js`).href)})
    `
    await expect(run(process.execPath, ['--input-type=module', '-e', script], { cwd: root, timeout: 60_000 })).rejects.toThrow(/imported at startup: @cfworker\/json-schema/)
  })
})

/** The bundle files Node loads for the entries before running them: each with its static imports, transitively, and the core's script. */
const staticGraph = (...entries: ReadonlyArray<string>): ReadonlyMap<string, string> => {
  const files = new Map<string, string>()
  const visit = (name: string): void => {
    if (files.has(name)) return
    const text = readFileSync(`${root}dist/bundle/${name}`, 'utf8')
    files.set(name, text)
    // `import{a}from"./x.js"`, `import"./x.js"`, `export*from"./x.js"`; never `import("./x.js")`, loaded on use
    for (const [, next] of text.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) visit(next!)
    // the core's shim runs the core as a script read beside it (scripts/core-shim.js)
    for (const [, script] of text.matchAll(/'\.\/([\w.-]+\.script\.js)'/g)) visit(script!)
  }
  for (const entry of entries) visit(entry)
  return files
}

describe('the bundle files a stdio server loads', () => {
  // nine before the lazily loaded chunks and the shared transport modules were linked with the core
  const graph = staticGraph('index.js', 'stdio.js')

  it('are the two entries and two chunks: the core, and the stdio code it shares with the client and the command line', () => {
    // the core is a shim and its script (scripts/core-shim.js); the ES module of the core is not loaded on Node
    expect([...graph.keys()].filter((name) => name.startsWith('chunk-') && !name.endsWith('.script.js')).length).toBeLessThanOrEqual(2)
    expect([...graph.keys()].filter((name) => name.endsWith('.script.js')).length).toBe(1)
    expect([...graph.keys()].some((name) => name.startsWith('core-'))).toBe(false)
    expect(graph.has('index.js') && graph.has('stdio.js')).toBe(true)
  })

  it('hold no io-ts codec that emcp does not use (io-ts is shaken, not run whole at every start)', () => {
    const tags = new Set([...graph.values()].flatMap((text) => [...text.matchAll(/_tag\s*=\s*"(\w+Type)"/g)].map((m) => m[1])))
    // the ones it builds on are there (the pattern finds them); io-ts has about thirty
    expect(tags).toContain('StringType')
    expect(tags.size).toBeLessThanOrEqual(10)
    for (const unused of ['BigIntType', 'TupleType', 'NeverType', 'FunctionType', 'ReadonlyArrayType']) expect(tags).not.toContain(unused)
  })
})
