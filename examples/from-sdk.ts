/**
 * A notes server ported from the official SDK (`McpServer`, `registerTool`, `registerPrompt`,
 * `registerResource`, `ResourceTemplate`) to emcp with its zod schemas unchanged: the same
 * raw shapes (`{ title: z.string(), … }`) the SDK's `registerTool` took are the tools' `input`
 * and `output`. See docs/from-sdk.md, which
 * shows the SDK server it came from, line by line.
 *
 *   node dist/examples/from-sdk.js [--stdio]
 *   node dist/examples/from-sdk.js --http [--port 3000] [--host 127.0.0.1]
 */
import { z } from 'zod'
import { emcp, mcpServer, prompt, prompts, resource, resources, resourceTemplate, toolError } from 'emcp'
import { serveHttp } from 'emcp/http'
import { serveStdio } from 'emcp/stdio'
import { portOf, runMain } from './main.js'

// The schemas, exactly as the SDK server declared them: raw shapes, the SDK's documented form.

/** `add_note`'s arguments: a title, a body, tags (none by default). */
export const AddNoteInput = {
  title: z.string().min(1).max(100).describe('A short title'),
  body: z.string().describe('The text of the note'),
  tags: z.array(z.string().regex(/^[a-z]+$/, 'tags are lowercase words')).default([]),
}
/** What `add_note` answers. */
export const AddNoteOutput = { id: z.string(), tags: z.number().int() }
/** `search_notes`'s arguments: a query and how many hits (10 by default). */
export const SearchInput = { query: z.string().min(1), limit: z.number().int().positive().max(50).default(10) }
/** What `search_notes` answers. */
export const SearchOutput = { hits: z.array(z.object({ id: z.string(), title: z.string() })) }
/** `delete_note`'s arguments. */
export const DeleteInput = { id: z.string().regex(/^n\d+$/, 'a note id looks like n1') }
/** `summarize_notes`'s arguments, the prompt's `argsSchema`: a tag, optional. */
export const SummarizeArgs = { tag: z.string().optional().describe('Only the notes with this tag') }

interface Note {
  readonly title: string
  readonly body: string
  readonly tags: ReadonlyArray<string>
}

/** The notes, in memory: one store per process. */
const notes = new Map<string, Note>([['n1', { title: 'Welcome', body: 'Hello from emcp.', tags: ['intro'] }]])
let next = 2

export const addNote = emcp({
  name: 'add_note',
  title: 'Add a note',
  description: 'Store a note and answer its id.',
  input: AddNoteInput,
  output: AddNoteOutput,
})
export const searchNotes = emcp({
  name: 'search_notes',
  description: 'Find the notes whose title or body contains the query.',
  input: SearchInput,
  output: SearchOutput,
  annotations: { readOnlyHint: true },
})
export const deleteNote = emcp({
  name: 'delete_note',
  description: 'Delete a note by its id.',
  input: DeleteInput,
  annotations: { destructiveHint: true, idempotentHint: true },
})

const summarize = prompt({
  name: 'summarize_notes',
  description: 'Ask the model to summarize the notes, or those with one tag.',
  arguments: SummarizeArgs,
  get: ({ tag }) => {
    const picked = [...notes.values()].filter((n) => tag === undefined || n.tags.includes(tag))
    return `Summarize these notes:\n\n${picked.map((n) => `# ${n.title}\n${n.body}`).join('\n\n')}`
  },
})

const index = resource({
  uri: 'notes://index',
  name: 'index',
  mimeType: 'application/json',
  read: () => JSON.stringify([...notes.keys()]),
})
const note = resourceTemplate({
  uriTemplate: 'notes://{id}',
  name: 'note',
  mimeType: 'text/plain',
  read: ({ id }) => notes.get(id)?.body, // undefined: the client gets -32002 Resource not found
  list: () => [...notes.entries()].map(([id, n]) => ({ uri: `notes://${id}`, name: n.title })),
})

/** The ported server, ready for any transport. */
export const fromSdk = mcpServer([addNote, searchNotes, deleteNote], { name: 'notes', version: '1.0.0' }, {
  features: [prompts([summarize]), resources([index, note])],
}).implement({
  // title: string, body: string, tags: string[] (zod's default applied); the result must fit AddNoteOutput
  add_note: ({ title, body, tags }, ctx) => {
    const id = `n${next++}`
    notes.set(id, { title, body, tags })
    ctx.log('info', `added ${id}`)
    return { id, tags: tags.length }
  },
  search_notes: ({ query, limit }) => ({
    hits: [...notes.entries()]
      .filter(([, n]) => n.title.includes(query) || n.body.includes(query))
      .slice(0, limit)
      .map(([id, n]) => ({ id, title: n.title })),
  }),
  delete_note: ({ id }) => (notes.delete(id) ? `deleted ${id}` : toolError(`no note ${id}`)),
})

export default fromSdk

const usage = `The notes MCP server, ported from the official SDK (add_note, search_notes, delete_note).

  node dist/examples/from-sdk.js [--stdio]                         over stdio (the default)
  node dist/examples/from-sdk.js --http [--port 3000] [--host 127.0.0.1]   over Streamable HTTP`

const options = { stdio: { type: 'boolean' }, http: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } } as const

runMain(import.meta.url, { usage, options }, async ({ http, port, host }) => {
  if (http !== true) {
    await serveStdio(fromSdk)
    return
  }
  const running = await serveHttp(fromSdk, { port: portOf(port, 3000), host })
  console.log(`notes MCP server listening on ${running.url} (stateless Streamable HTTP). Press Ctrl+C to stop.`)
})
