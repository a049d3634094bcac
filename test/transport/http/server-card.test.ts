/**
 * The server card (src/transport/http/server-card.ts, `serveHttp({ serverCard })`): served at
 * /.well-known/mcp/server-card.json to GET and HEAD only, a subset of server.json that
 * validates against the official registry schema (read from ../shared/mcp-registry).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer } from '../../../src/index.js'
import { serveHttp } from '../../../src/transport/http.js'
import { root } from '../../interop/children.js'

const schemaPath = join(root, '..', 'shared', 'mcp-registry', 'server.schema.json')
const present = existsSync(schemaPath)
if (!present && process.env.CI === 'true') throw new Error(`the registry schema is missing at ${schemaPath}`)

/** Validates against the registry schema; says so when the schema is absent (outside CI). */
const validate = (data: unknown) => {
  if (!present) return { valid: true, errors: null }
  const ajv = new Ajv.default({ allErrors: true, strict: false })
  addFormats.default(ajv)
  const check = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object)
  return { valid: check(data), errors: check.errors ?? null }
}
if (!present) console.warn(`registry schema absent at ${schemaPath}: the card is checked without it`)

describe('serveHttp({ serverCard })', () => {
  const server = mcpServer([emcp({ name: 'ping', description: 'Ping.', input: { type: 'object' } })], { name: 'pinger', version: '2.0.0', title: 'Pinger', description: 'Answers pings.' }).implement({ ping: () => 'pong' })

  it('serves the card at /.well-known/mcp/server-card.json: a subset of server.json, to GET and HEAD', async () => {
    const running = await serveHttp(server, { port: 0, serverCard: true })
    try {
      const at = new URL('/.well-known/mcp/server-card.json', running.url)
      const r = await fetch(at)
      expect(r.status).toBe(200)
      expect(r.headers.get('access-control-allow-origin')).toBe('*')
      const card = (await r.json()) as Record<string, unknown>
      expect(card).toEqual({
        $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
        name: '1.0.0.127/pinger',
        version: '2.0.0',
        title: 'Pinger',
        description: 'Answers pings.',
        remotes: [{ type: 'streamable-http', url: running.url }],
      })
      expect(validate(card)).toEqual({ valid: true, errors: null })
      expect((await fetch(at, { method: 'HEAD' })).status).toBe(200)
      expect((await fetch(at, { method: 'POST' })).status).toBe(405)
    } finally {
      await running.close()
    }
  })

  it('takes the registry name and the public URL, and refuses a malformed name when the server starts', async () => {
    const running = await serveHttp(server, { port: 0, serverCard: { name: 'org.example/pinger', url: 'https://pinger.example.org/mcp' } })
    try {
      const card = (await (await fetch(new URL('/.well-known/mcp/server-card.json', running.url))).json()) as Record<string, unknown>
      expect(card).toMatchObject({ name: 'org.example/pinger', remotes: [{ type: 'streamable-http', url: 'https://pinger.example.org/mcp' }] })
    } finally {
      await running.close()
    }
    expect(() => serveHttp(server, { port: 0, serverCard: { name: 'no slash' } })).toThrow(/reverse-DNS form/)
    const without = await serveHttp(server, { port: 0 })
    try {
      expect((await fetch(new URL('/.well-known/mcp/server-card.json', without.url))).status).toBe(404)
    } finally {
      await without.close()
    }
  })
})
