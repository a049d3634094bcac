/**
 * The SDK v2 client's interop checks against the everything example, wherever it is served
 * (Node, Deno, Bun, workerd): the official `@modelcontextprotocol/client` 2.4.0 connects in
 * the era asked, lists and calls tools (a 2020-12 schema's failures named by path), reads a
 * resource, gets a prompt, and asks the client: through `input_required` retries in
 * 2026-07-28, through server-to-client requests on SSE in a 2025-11-25 session.
 *
 * @example
 * import { v2Interop } from '../support/v2-interop.js'
 * await v2Interop('http://127.0.0.1:3000/mcp', 'legacy', { channel: true })
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { expect } from 'vitest'

/** The era the client negotiates: 2025-11-25 through initialize, or 2026-07-28 pinned. */
export type Era = 'legacy' | '2026-07-28'

/** Runs the checks; `channel`: the endpoint keeps 2025-11-25 sessions (SSE, server-to-client requests). */
export const v2Interop = async (url: string, era: Era, { channel }: { readonly channel: boolean }): Promise<void> => {
  const client = new Client({ name: 'emcp-runtimes', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: era === 'legacy' ? 'legacy' : { pin: '2026-07-28' } } })
  const asked: string[] = []
  client.setRequestHandler('elicitation/create', async (req) => {
    asked.push(String((req.params as { message?: unknown }).message))
    return { action: 'accept', content: { name: 'Ada', username: 'ada', email: 'ada@example.com' } }
  })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  try {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['test_simple_text', 'json_schema_2020_12_tool', 'test_tool_with_task']))
    expect(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.')
    const good = await client.callTool({ name: 'json_schema_2020_12_tool', arguments: { name: 'Ada', email: 'ada@example.com', address: { city: 'London' } } })
    expect(good.isError).not.toBe(true)
    const bad = await client.callTool({ name: 'json_schema_2020_12_tool', arguments: { name: 'Ada', email: 'ada@example.com', address: { city: 7 }, extra: true } })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toMatch(/\/address\/city: must be string/)
    expect(textOf(bad)).toMatch(/\/extra: is not allowed/)
    const read = await client.readResource({ uri: 'test://static-text' })
    expect(read.contents[0]).toMatchObject({ uri: 'test://static-text', text: 'This is the content of the static text resource.' })
    const prompt = await client.getPrompt({ name: 'test_simple_prompt' })
    expect(prompt.messages.length).toBeGreaterThan(0)
    if (era === '2026-07-28') {
      // the client answers input_required and retries with the signed requestState (Web Crypto on every runtime)
      expect(textOf(await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }))).toBe('Hello, Ada!')
      expect(asked).toContain('What is your name?')
    } else if (channel) {
      // a server-to-client request on the call's SSE stream, and progress on the same stream
      expect(textOf(await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } }))).toMatch(/action=accept/)
      expect(asked).toContain('Who are you?')
      const progress: number[] = []
      await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => progress.push(p.progress) })
      expect(progress).toEqual([0, 50, 100])
    }
  } finally {
    await client.close()
  }
}

/** The text blocks of a tool result, joined. */
const textOf = (result: { readonly content?: unknown }): string =>
  ((result.content ?? []) as ReadonlyArray<{ readonly type: string; readonly text?: string }>)
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
