/**
 * What a server loads before its first answer: the built bench example, in a fresh process,
 * answers initialize (2025-11-25) without loading Web Crypto, which only request states
 * (2026-07-28) and the shared hub's bus messages need, on first use (sealing with the key
 * made then: test/protocol/2026-07-28/request-state*.test.ts).
 */
import { execFile } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { example, root } from './children.js'

const run = promisify(execFile)

/** Builds the bench server with `tools` filler tools in a fresh process, answers `line`, and reports the answer and what was loaded. */
const firstAnswer = async (tools: number, line: string): Promise<{ answer: unknown; webCrypto: boolean }> => {
  const script = `
    const { benchServer } = await import(${JSON.stringify(pathToFileURL(example('bench')).href)})
    const { newSession } = await import(${JSON.stringify(pathToFileURL(`${root}dist/bundle/index.js`).href)})
    await import(${JSON.stringify(pathToFileURL(`${root}dist/bundle/stdio.js`).href)})
    const server = benchServer(${tools})
    const out = await server.answerText(${JSON.stringify(line)}, newSession())
    process.stdout.write(JSON.stringify({ answer: JSON.parse(out.value), webCrypto: process.moduleLoadList.some((m) => m.includes('webcrypto')) }))
  `
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root, timeout: 60_000 })
  return JSON.parse(stdout) as { answer: unknown; webCrypto: boolean }
}

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })

describe('startup of the built bench example', () => {
  it.each([0, 2000])('answers initialize with %i filler tools without loading Web Crypto', async (tools) => {
    const { answer, webCrypto } = await firstAnswer(tools, initialize)
    expect(answer).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'bench' } } })
    expect(webCrypto).toBe(false)
  })
})
