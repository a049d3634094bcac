/**
 * The handler context at work: one tool per feature. `count` reports progress, `log_levels`
 * logs at several levels, `ask_name` asks the user to fill a form (elicitation), `summarize`
 * asks the client's model (sampling), `list_roots` lists the client's roots, and `slow` waits
 * until it is done or cancelled. Everything that talks to the client needs a channel to it,
 * so this example serves stdio only (stateless HTTP cannot carry server-to-client messages).
 *
 *   node dist/examples/context.js
 *
 * See docs/context.md.
 */
import { emcp, mcpServer, type ContentBlock } from 'emcp'
import { serveStdio } from 'emcp/stdio'
import { runMain } from './main.js'

export const count = emcp({
  name: 'count',
  description: 'Count from 1 to `steps`, one step every `delayMs` milliseconds, reporting progress at each step.',
  input: {
    type: 'object',
    properties: {
      steps: { type: 'integer', minimum: 1, maximum: 100, description: 'How many steps to count' },
      delayMs: { type: 'integer', minimum: 0, maximum: 1000, description: 'Pause before each step (default 10)' },
    },
    required: ['steps'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: { counted: { type: 'integer' }, steps: { type: 'integer' } },
    required: ['counted', 'steps'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
})

export const logLevelsTool = emcp({
  name: 'log_levels',
  description: 'Send one log message at each of debug, info, notice, warning and error; the client sees those at or above its logging level.',
  input: {
    type: 'object',
    properties: { logger: { type: 'string', description: 'The logger name to send (default "context-example")' } },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
})

export const askName = emcp({
  name: 'ask_name',
  description: "Ask the user for their name and age through a form, and greet them (or say what they chose instead).",
  input: {
    type: 'object',
    properties: {
      timeoutMs: { type: 'integer', minimum: 1, maximum: 600_000, description: 'How long to wait for the answer (default 60000)' },
    },
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['accept', 'decline', 'cancel'] },
      greeting: { type: 'string' },
    },
    required: ['action'],
    additionalProperties: false,
  },
})

export const summarize = emcp({
  name: 'summarize',
  description: "Summarise a text in one sentence with the client's model (sampling).",
  input: {
    type: 'object',
    properties: {
      text: { type: 'string', minLength: 1, description: 'The text to summarise' },
      maxTokens: { type: 'integer', minimum: 1, maximum: 4096, description: 'Longest answer, in tokens (default 200)' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: { summary: { type: 'string' }, model: { type: 'string' } },
    required: ['summary', 'model'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: true },
})

export const listRoots = emcp({
  name: 'list_roots',
  description: 'List the roots (directories, repositories) the client exposes to this server.',
  input: { type: 'object', properties: {}, additionalProperties: false },
  output: {
    type: 'object',
    properties: {
      roots: {
        type: 'array',
        items: {
          type: 'object',
          properties: { uri: { type: 'string' }, name: { type: 'string' } },
          required: ['uri'],
          additionalProperties: false,
        },
      },
    },
    required: ['roots'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
})

export const slow = emcp({
  name: 'slow',
  description: "Wait `ms` milliseconds unless the call is cancelled first; answers 'finished' or 'cancelled'.",
  input: {
    type: 'object',
    properties: { ms: { type: 'integer', minimum: 0, maximum: 600_000, description: 'How long to wait' } },
    required: ['ms'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
})

/** The form `ask_name` shows; the answer's type (`{ name: string; age: number }`) comes from it. */
const nameForm = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, description: 'Your name' },
    age: { type: 'integer', minimum: 0, maximum: 150, description: 'Your age in years' },
  },
  required: ['name', 'age'],
} as const

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
const sleep = (ms: number, signal: AbortSignal): Promise<boolean> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve(false)
    const onAbort = (): void => {
      clearTimeout(timer)
      resolve(false)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve(true)
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })

/** The text of a sampling answer (one block or several). */
const textOf = (content: ContentBlock | ReadonlyArray<ContentBlock>): string =>
  (Array.isArray(content) ? content : [content])
    .map((b: ContentBlock) => (b.type === 'text' ? b.text : `[${b.type}]`))
    .join('\n')

/** The context example server, ready for stdio. */
export const contextServer = mcpServer([count, logLevelsTool, askName, summarize, listRoots, slow], {
  name: 'context-example',
  version: '1.0.0',
  title: 'Handler context example',
}).implement({
  count: async ({ steps, delayMs = 10 }, ctx) => {
    let counted = 0
    for (let i = 1; i <= steps; i++) {
      if (!(await sleep(delayMs, ctx.signal))) break
      counted = i
      ctx.progress(i, steps, `step ${i} of ${steps}`)
    }
    return { counted, steps }
  },

  log_levels: ({ logger = 'context-example' }, ctx) => {
    const levels = ['debug', 'info', 'notice', 'warning', 'error'] as const
    for (const level of levels) ctx.log(level, { message: `a ${level} message`, level }, logger)
    return `logged at ${levels.join(', ')}`
  },

  ask_name: async ({ timeoutMs }, ctx) => {
    const answer = await ctx.elicit(
      { message: 'Who are you?', requestedSchema: nameForm },
      timeoutMs === undefined ? undefined : { timeoutMs },
    )
    if (answer.action !== 'accept') return { action: answer.action }
    // typed by the form: name is a string, age a number
    const { name, age } = answer.content
    return { action: 'accept' as const, greeting: `Hello, ${name}! Next year you will be ${age + 1}.` }
  },

  summarize: async ({ text, maxTokens = 200 }, ctx) => {
    const result = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarise in one sentence:\n\n${text}` } }],
      systemPrompt: 'You write one-sentence summaries.',
      maxTokens,
      includeContext: 'none',
    })
    return { summary: textOf(result.content), model: result.model }
  },

  list_roots: async (_args, ctx) => {
    const roots = await ctx.roots()
    return { roots: roots.map((r) => (r.name === undefined ? { uri: r.uri } : { uri: r.uri, name: r.name })) }
  },

  slow: async ({ ms }, ctx) => {
    const started = Date.now()
    // a client that asked for progress knows the call is running (and may cancel it)
    ctx.progress(0, ms)
    if (await sleep(ms, ctx.signal)) return 'finished'
    // the client will never see this answer; the log tells it (and the tests) the signal fired
    ctx.log('notice', `slow was cancelled after ${Date.now() - started} ms: ${String(ctx.signal.reason)}`, 'slow')
    return 'cancelled'
  },
})

export default contextServer

runMain(import.meta.url, { usage: 'The handler-context server, over stdio:\n\n  node dist/examples/context.js', options: {} }, () => serveStdio(contextServer))
