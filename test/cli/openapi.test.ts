/**
 * `emcp openapi`: the built command serves the document the Fastify app generates, over
 * stdio, to the official SDK client (every operation listed, one called, a 404 as isError);
 * and, in process, its usage errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CommandIO } from '../../src/cli/index.js'
import { connectStdio, emcpBin, root, texts, type Connection } from '../interop/children.js'
import { petStore, type PetStore } from '../sources/openapi/fastify-app.js'

const cli = async (argv: string[]) => {
  let err = ''
  const io: CommandIO = { out: () => {}, err: (s) => void (err += s), cwd: root, interactive: false }
  return { code: await runCli(argv, io), err }
}

describe('emcp openapi <url> over stdio, official SDK client', () => {
  let store: PetStore
  let c: Connection

  beforeAll(async () => {
    store = await petStore()
    c = await connectStdio(emcpBin, ['openapi', `${store.baseUrl}/openapi.json`, '--base-url', store.baseUrl, '--exclude-tag', 'admin'])
  })

  afterAll(async () => {
    await c?.dispose()
    await store?.app.close()
  })

  it('lists the operations as tools and calls them', async () => {
    expect(c.client.getServerVersion()).toMatchObject({ name: 'Pet store', version: '2.1.0' })
    const { tools } = await c.client.listTools()
    expect(tools.map((t) => t.name)).toEqual(['getPet', 'listPets', 'createPet', 'categoryTree'])
    const r = await c.client.callTool({ name: 'getPet', arguments: { petId: 2 } })
    expect(r.structuredContent).toEqual({ id: 2, name: 'Tom', tag: 'cat' })
    const missing = await c.client.callTool({ name: 'getPet', arguments: { petId: 7 } })
    expect(missing.isError).toBe(true)
    expect(texts(missing.content)).toEqual(['GET /pets/{petId}: HTTP 404 Not Found: {"message":"no pet 7"}'])
  })
})

describe('emcp openapi: usage errors', () => {
  it('names what is wrong', async () => {
    expect(await cli(['openapi'])).toMatchObject({ code: 2, err: expect.stringContaining('give the OpenAPI document') })
    expect(await cli(['openapi', 'x.json', '--base-url', 'ftp://x'])).toMatchObject({ code: 2, err: expect.stringContaining('--base-url must be an http(s) URL') })
    expect(await cli(['openapi', 'x.json', '--port', '1'])).toMatchObject({ code: 2, err: expect.stringContaining('--port and --host need --http') })
    expect(await cli(['openapi', 'no-such-file.json'])).toMatchObject({ code: 1, err: expect.stringContaining('cannot read the document') })
  })
})
