/**
 * A mount over stateful Streamable HTTP on 127.0.0.1, with the official 1.32.2 client: a tool
 * added to a part at run time reaches the client of the whole as
 * `notifications/tools/list_changed` on its SSE stream, and is then listed and callable.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { emcp, mcpServer, mount, mounted } from '../../src/index.js'
import { serveHttp } from '../../src/transport/http.js'
import { until } from '../interop/children.js'

const where = emcp({ name: 'where', description: 'Where.', input: { type: 'object' } })
const geo = mcpServer([where], { name: 'geo', version: '1' }).implement({ where: () => 'here' })
const whole = mount([mounted(geo, 'geo')], { name: 'whole', version: '1' })
const running = await serveHttp(whole, { port: 0, sessions: true })
afterAll(() => running.close())

/** A connected client counting the list_changed notifications it heard, once its stream for server messages is open. */
const connect = async () => {
  const client = new Client({ name: 'mount-test', version: '0' })
  const heard = { count: 0, streams: 0 }
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.count++)
  // the server's own messages travel on the GET stream: count it once the server has answered it
  const fetchCounting = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const res = await fetch(url, init)
    if ((init?.method ?? 'GET') === 'GET' && res.status === 200) heard.streams++
    return res
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url), { fetch: fetchCounting }))
  await until(() => heard.streams > 0, 'the GET stream of server messages')
  return { client, heard }
}

describe('a mount over stateful HTTP', () => {
  it('relays a part list_changed to the client of the whole; the new tool is listed and callable', async () => {
    const { client, heard } = await connect()
    try {
      await expect(client.listTools()).resolves.toMatchObject({ tools: [{ name: 'geo_where' }] })
      geo.addTool(emcp({ name: 'near', description: 'Near.', input: { type: 'object' } }), () => 'close by')
      await until(() => heard.count > 0, 'notifications/tools/list_changed from the part')
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['geo_where', 'geo_near'])
      expect(await client.callTool({ name: 'geo_near', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'close by' }] })
    } finally {
      await client.close()
    }
  }, 30_000)
})
