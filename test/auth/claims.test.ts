import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect, test } from 'vitest'
import { emcp, mcpServer } from 'emcp'
import { behindOAuth } from '../support/oauth.js'

// a claim-bound argument end to end: a JWT from a real OpenID provider, verified by oauth(),
// fills the argument; the official SDK client never sees it in the schema
const whoami = emcp({
  name: 'whoami',
  description: 'Says which client the token was issued to.',
  input: { type: 'object', properties: { client: { type: 'string' }, greeting: { type: 'string' } }, required: ['client'], additionalProperties: false },
  claims: { client: 'client_id' },
})
const server = mcpServer([whoami], { name: 'claims', version: '1' }).implement({ whoami: ({ client, greeting }) => `${greeting ?? 'hello'} ${client}` })

const auth = behindOAuth(server, ['calc:read'])

test('the SDK client sees no claim-bound argument; the token fills it; a value it sends is refused', async () => {
  const bearer = await auth.token('calc:read')
  const client = new Client({ name: 'sdk', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(auth.url), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }))
  const [tool] = (await client.listTools()).tools
  expect(tool?.inputSchema).toEqual({ type: 'object', properties: { greeting: { type: 'string' } }, additionalProperties: false })
  expect(await client.callTool({ name: 'whoami', arguments: { greeting: 'hi' } })).toEqual({ content: [{ type: 'text', text: 'hi demo-client' }] })
  expect(await client.callTool({ name: 'whoami', arguments: { client: 'someone-else' } })).toMatchObject({
    isError: true,
    content: [{ text: "Invalid arguments for tool whoami: client: filled from the caller's token; do not send it" }],
  })
  await client.close()
})
