/**
 * One driver shape over the clients the slot tests (prompt arguments, `ctx.elicit` forms) run
 * through: the official SDK 1.x over a 2025-11-25 session, the official client 2.x over
 * 2026-07-28 (elicitation through input_required), and inMemoryClient. Each answers
 * elicitation through the test's own `elicit` (where it records what it was asked, and what
 * it answers), and lists and gets prompts and calls a tool with empty arguments. Plus the
 * raw-shape argument schemas the prompt tests share.
 *
 * @example
 * import { elicitUser, servedSlotClients, withDriver } from '../support/slot-drivers.js'
 * const user = elicitUser()
 * const { clients } = servedSlotClients(server, ['slots-1', 'slots-2'], user.elicit)
 * // describe.each(clients)('%s', (_, open) => { it('calls', withDriver(open, async (c) => expect(await c.call('t')).toEqual({ text: 'ok' }))) })
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, expect } from 'vitest'
import { z } from 'zod'
import { inMemoryClient, type AnyTool, type Server } from '../../src/index.js'
import { serveHttp, type RunningHttp } from '../../src/transport/http.js'

/** What a client answers to an elicitation. */
export interface ElicitAnswer {
  readonly action: 'accept' | 'decline'
  readonly content?: Record<string, unknown>
}

/** What a client is asked: an elicitation's params. */
export interface Asked {
  readonly message?: unknown
  readonly requestedSchema?: unknown
}

/** The test's side of elicitation: record what was asked, say what to answer. */
export type Elicit = (asked: Asked) => ElicitAnswer

/** A client as the slot tests drive it, whatever its library and era. */
export interface Driver {
  readonly listPrompts: () => Promise<ReadonlyArray<{ readonly name: string; readonly arguments?: unknown }>>
  readonly getPrompt: (name: string, args: Record<string, string>) => Promise<string>
  readonly call: (name: string) => Promise<{ readonly isError?: boolean; readonly text: string }>
  readonly close: () => Promise<void>
}

/** The user behind a test's clients: what they were asked, and what they answer next (decline until set). */
export interface ElicitUser {
  readonly asked: Asked[]
  answer: ElicitAnswer
  readonly elicit: Elicit
}

/** A fresh user: records each elicitation in `asked`, answers `answer`. */
export const elicitUser = (): ElicitUser => {
  const user: ElicitUser = {
    asked: [],
    answer: { action: 'decline' },
    elicit: (asked) => {
      user.asked.push(asked)
      return user.answer
    },
  }
  return user
}

/** A client's name in the test titles, and how to open one. */
export type SlotClient = readonly [string, () => Promise<Driver>]

/** A tool result as its text blocks joined, `isError` only when set. */
export const textOf = (r: { isError?: unknown; content?: unknown }): { readonly isError?: boolean; readonly text: string } => ({
  ...(r.isError === true ? { isError: true } : {}),
  text: ((r.content ?? []) as Array<{ text?: string }>).map((b) => b.text ?? '').join('\n'),
})

/** A prompt's messages as their texts joined. */
export const promptText = (r: { messages: Array<{ content: { text?: string } }> }): string => r.messages.map((m) => m.content.text ?? '').join('\n')

/** The official SDK 1.x client over a 2025-11-25 session at `url`. */
export const sdk1Driver = async (url: string, name: string, elicit: Elicit): Promise<Driver> => {
  const client = new Client({ name, version: '1' }, { capabilities: { elicitation: { form: {} } } })
  client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params) as never)
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  return {
    listPrompts: async () => (await client.listPrompts()).prompts,
    getPrompt: async (prompt, args) => promptText((await client.getPrompt({ name: prompt, arguments: args })) as never),
    call: async (tool) => textOf((await client.callTool({ name: tool, arguments: {} })) as never),
    close: () => client.close(),
  }
}

/** The official client 2.x at `url`, checked to have negotiated 2026-07-28. */
export const client2Driver = async (url: string, name: string, elicit: Elicit): Promise<Driver> => {
  const client = new Client2({ name, version: '1' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } })
  client.setRequestHandler('elicitation/create', async (request) => elicit(request.params) as never)
  await client.connect(new Transport2(new URL(url)))
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
  return {
    listPrompts: async () => (await client.listPrompts()).prompts as never,
    getPrompt: async (prompt, args) => promptText((await client.getPrompt({ name: prompt, arguments: args })) as never),
    call: async (tool) => textOf((await client.callTool({ name: tool, arguments: {} })) as never),
    close: () => client.close(),
  }
}

/** inMemoryClient on `server` in `protocolVersion`; a refused request rejects with its message. */
export const inMemoryDriver = <U extends AnyTool>(server: Server<U>, protocolVersion: string, elicit: Elicit): Driver => {
  const client = inMemoryClient(server, { protocolVersion, capabilities: { elicitation: { form: {} } }, answer: (request) => elicit(request.params) })
  const rpc = async (method: string, params: Record<string, unknown>) => {
    try {
      return await client.request(method, params)
    } catch (e) {
      // the HTTP clients reject with an Error; the error's code and data are not what is compared
      throw new Error((e as { message?: string }).message)
    }
  }
  return {
    listPrompts: async () => ((await rpc('prompts/list', {})) as { prompts: [] }).prompts,
    getPrompt: async (name, args) => promptText((await rpc('prompts/get', { name, arguments: args })) as never),
    call: async (name) => textOf(await client.callResult(name as U['name'], {} as never)),
    close: async () => {},
  }
}

/**
 * Serves `server` over HTTP with sessions for the calling file (started before all its tests,
 * closed after), and gives the two official clients on it, named `names`; `url()` once started.
 */
export const servedSlotClients = <U extends AnyTool>(server: Server<U>, names: readonly [string, string], elicit: Elicit): { readonly url: () => string; readonly clients: SlotClient[] } => {
  let running: RunningHttp | undefined
  beforeAll(async () => {
    running = await serveHttp(server, { port: 0, host: '127.0.0.1', handleSignals: false, sessions: true })
  })
  afterAll(async () => {
    await running?.close()
  })
  const url = (): string => {
    if (running === undefined) throw new Error('the server is not started yet')
    return running.url
  }
  return {
    url,
    clients: [
      ['@modelcontextprotocol/sdk 1.x (2025-11-25)', () => sdk1Driver(url(), names[0], elicit)],
      ['@modelcontextprotocol/client 2.x (2026-07-28)', () => client2Driver(url(), names[1], elicit)],
    ],
  }
}

/** A test body run on a freshly opened driver, closed whatever the body does. */
export const withDriver =
  (open: () => Promise<Driver>, body: (c: Driver) => Promise<void>) =>
  async (): Promise<void> => {
    const c = await open()
    try {
      await body(c)
    } finally {
      await c.close()
    }
  }

/** A required text argument: at least `min` characters (`message` otherwise), described. */
export const textArg = (min: number, message: string, description: string) => z.string().min(min, message).describe(description)

/** An optional count given as digits (`message` otherwise), handed on as a number. */
export const digitsArg = (message: string) => z.string().regex(/^\d+$/, message).transform(Number).optional()
