import { afterEach, describe, expect, it } from 'vitest'
import { PassThrough, Writable } from 'node:stream'
import { emcp, mcpServer } from '../../../src/index.js'
import { serveStdio, startStdio, type StdioOptions, type StdioServer } from '../../../src/transport/stdio.js'

// ---------------------------------------------------------------------------------------
// fixtures

const echo = emcp({
  name: 'echo',
  description: 'Echo the text.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
})
const slow = emcp({
  name: 'slow',
  description: 'Answer after some milliseconds.',
  input: { type: 'object', properties: { ms: { type: 'integer' }, tag: { type: 'string' } }, required: ['ms', 'tag'] },
})
const big = emcp({
  name: 'big',
  description: 'Answer with n characters.',
  input: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
})
const shout = emcp({
  name: 'shout',
  description: 'Write to console.log, then answer.',
  input: { type: 'object' },
})
const version = emcp({ name: 'version', description: 'The session revision.', input: { type: 'object' } })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

let running = 0
let maxRunning = 0

const server = mcpServer([echo, slow, big, shout, version], { name: 'stdio-test', version: '1' }).implement({
  echo: ({ text }) => text,
  slow: async ({ ms, tag }) => {
    running++
    maxRunning = Math.max(maxRunning, running)
    await sleep(ms)
    running--
    return tag
  },
  big: ({ n }) => 'x'.repeat(n),
  shout: () => {
    console.log('this must not reach the protocol stream')
    return 'shouted'
  },
  version: (_a, ctx) => ctx.session.protocolVersion,
})

/** A Writable that keeps everything written to it, optionally slow to take each chunk. */
class Sink extends Writable {
  text = ''
  constructor(highWaterMark = 16 * 1024, readonly delayMs = 0) {
    super({ highWaterMark, decodeStrings: false })
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: (e?: Error | null) => void): void {
    const take = () => {
      this.text += chunk.toString()
      done()
    }
    if (this.delayMs > 0) setTimeout(take, this.delayMs)
    else take()
  }
  /** The complete lines written so far, parsed. */
  messages(): any[] {
    const lines = this.text.split('\n')
    lines.pop()
    return lines.map((l) => JSON.parse(l))
  }
}

/** Waits until `ready()` holds; fails after `ms`. */
const until = async (ready: () => boolean, ms = 5000): Promise<void> => {
  const end = Date.now() + ms
  while (!ready()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await sleep(2)
  }
}

const started: Array<{ input: PassThrough; handle: StdioServer }> = []

/** Starts a stdio server over fresh streams; everything started is closed after each test. */
const start = (options: Partial<StdioOptions> = {}, sink = new Sink()) => {
  const input = new PassThrough()
  const handle = startStdio(server, { input, output: sink, redirectConsole: false, handleSignals: false, ...options })
  started.push({ input, handle })
  return { input, output: sink, handle }
}

afterEach(async () => {
  for (const { input, handle } of started.splice(0)) {
    input.end()
    await handle.close()
  }
})

const request = (id: number | string, method: string, params?: object): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })

const callLine = (id: number | string, name: string, args: object): string => request(id, 'tools/call', { name, arguments: args })

const textOf = (m: any): string => m.result.content[0].text

// ---------------------------------------------------------------------------------------
// tests

describe('stdio: framing (MCP: messages are delimited by newlines)', () => {
  it('answers one request per line', async () => {
    const { input, output } = start()
    input.write(request(1, 'ping') + '\n')
    await until(() => output.messages().length === 1)
    expect(output.messages()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }])
    expect(output.text.endsWith('\n')).toBe(true)
  })

  it('joins a line that arrives in several chunks', async () => {
    const { input, output } = start()
    const line = callLine(1, 'echo', { text: 'joined' }) + '\n'
    for (let i = 0; i < line.length; i += 7) input.write(line.slice(i, i + 7))
    await until(() => output.messages().length === 1)
    expect(textOf(output.messages()[0])).toBe('joined')
  })

  it('accepts CRLF line ends', async () => {
    const { input, output } = start()
    input.write(callLine(1, 'echo', { text: 'crlf' }) + '\r\n' + request(2, 'ping') + '\r\n')
    await until(() => output.messages().length === 2)
    const byId = new Map(output.messages().map((m) => [m.id, m]))
    expect(textOf(byId.get(1))).toBe('crlf')
    expect(byId.get(2).result).toEqual({})
  })

  it('answers synchronous and asynchronous handlers of one chunk alike, each once, with its own id', async () => {
    const { input, output } = start()
    // echo answers at once, slow after a timer: the quick answers do not wait for the slow ones
    const lines = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? callLine(i, 'slow', { ms: 1, tag: `s${i}` }) : callLine(i, 'echo', { text: `e${i}` })))
    input.write(lines.join('\n') + '\n')
    await until(() => output.messages().length === 40)
    const byId = new Map(output.messages().map((m) => [m.id, m]))
    expect(byId.size).toBe(40)
    for (let i = 0; i < 40; i++) expect(textOf(byId.get(i))).toBe(i % 4 === 0 ? `s${i}` : `e${i}`)
  })

  it('ignores empty and blank lines', async () => {
    const { input, output } = start()
    input.write('\n\n   \n\r\n' + request(1, 'ping') + '\n\n')
    await until(() => output.messages().length >= 1)
    await sleep(20)
    expect(output.messages()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }])
  })

  it('answers a garbage line with -32700 and id null, then still answers the next line', async () => {
    const { input, output } = start()
    input.write('this is not json\n')
    input.write(request(2, 'ping') + '\n')
    await until(() => output.messages().length === 2)
    const [first, second] = output.messages()
    expect(first).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
    expect(second).toEqual({ jsonrpc: '2.0', id: 2, result: {} })
  })

  it('answers an over-long line (in one chunk) with -32600 under its id, then still answers the next line', async () => {
    const { input, output } = start({ maxLineBytes: 64 })
    input.write(callLine(1, 'echo', { text: 'y'.repeat(200) }) + '\n' + request(2, 'ping') + '\n')
    await until(() => output.messages().length === 2)
    const [first, second] = output.messages()
    expect(first).toMatchObject({ id: 1, error: { code: -32600 } })
    expect(first.error.message).toContain('64 bytes')
    expect(second).toEqual({ jsonrpc: '2.0', id: 2, result: {} })
  })

  it('answers an over-long line that arrives in many chunks exactly once with -32600, then goes on', async () => {
    const { input, output } = start({ maxLineBytes: 64 })
    const long = callLine(1, 'echo', { text: 'z'.repeat(500) })
    for (let i = 0; i < long.length; i += 30) input.write(long.slice(i, i + 30))
    input.write('\n' + request(2, 'ping') + '\n')
    await until(() => output.messages().length >= 2)
    await sleep(20)
    const all = output.messages()
    expect(all).toHaveLength(2)
    expect(all[0]).toMatchObject({ id: 1, error: { code: -32600 } })
    expect(all[1]).toEqual({ jsonrpc: '2.0', id: 2, result: {} })
  })

  it('reads the id of an over-long line only where it must be the top-level id', async () => {
    const { input, output } = start({ maxLineBytes: 64 })
    const text = 'q'.repeat(200)
    // last member (the official SDK puts id last), then an id that only a nested object carries
    input.write(`{"method":"tools/call","params":{"name":"echo","arguments":{"text":"${text}"}},"jsonrpc":"2.0","id":"last"}\r\n`)
    input.write(`{"method":"tools/call","params":{"name":"echo","arguments":{"text":"${text}","id":3}}}\n`)
    input.write(request(9, 'ping') + '\n')
    await until(() => output.messages().length === 3)
    const [a, b, c] = output.messages()
    expect(a).toMatchObject({ id: 'last', error: { code: -32600 } })
    expect(b).toMatchObject({ id: null, error: { code: -32600 } })
    expect(c).toEqual({ jsonrpc: '2.0', id: 9, result: {} })
  })

  it('reads the leading id of an over-long line even when its first chunk is tiny', async () => {
    const { input, output } = start({ maxLineBytes: 64 })
    input.write('{"jsonr')
    input.write(`pc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${'w'.repeat(200)}"}}}\n`)
    await until(() => output.messages().length === 1)
    expect(output.messages()[0]).toMatchObject({ id: 7, error: { code: -32600 } })
  })

  it('accepts a line of exactly maxLineBytes', async () => {
    const line = request(1, 'ping')
    const { input, output } = start({ maxLineBytes: Buffer.byteLength(line) })
    input.write(line + '\n')
    await until(() => output.messages().length === 1)
    expect(output.messages()[0]).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })

  it('decodes multi-byte UTF-8 characters split across chunks', async () => {
    const { input, output } = start()
    const text = 'héllo € 😀 日本語'
    const bytes = Buffer.from(callLine(1, 'echo', { text }) + '\n', 'utf8')
    for (let i = 0; i < bytes.length; i++) input.write(bytes.subarray(i, i + 1))
    await until(() => output.messages().length === 1)
    expect(textOf(output.messages()[0])).toBe(text)
  })

  it('answers a last line that has no newline when input ends', async () => {
    const { input, output, handle } = start()
    input.end(request(5, 'ping'))
    await handle.done
    expect(output.messages()).toEqual([{ jsonrpc: '2.0', id: 5, result: {} }])
  })

  it('never answers notifications', async () => {
    const { input, output } = start()
    input.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n' + request(1, 'ping') + '\n')
    await until(() => output.messages().length >= 1)
    await sleep(20)
    expect(output.messages()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }])
  })
})

describe('stdio: concurrency and the session', () => {
  it('answers many pipelined requests, each matched to its id', async () => {
    const { input, output } = start()
    const n = 100
    let lines = ''
    for (let i = 0; i < n; i++) lines += callLine(i, 'slow', { ms: (i * 7) % 23, tag: `t${i}` }) + '\n'
    input.write(lines)
    await until(() => output.messages().length === n)
    const all = output.messages()
    expect(new Set(all.map((m) => m.id)).size).toBe(n)
    for (const m of all) expect(textOf(m)).toBe(`t${m.id}`)
    // the slow ones finish out of order: answers are not serialised behind each other
    expect(all.map((m) => m.id)).not.toEqual([...Array(n).keys()])
  })

  it('keeps one session per connection: initialize sets the revision later calls see', async () => {
    const { input, output } = start()
    input.write(request(1, 'initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'c', version: '1' } }) + '\n')
    await until(() => output.messages().length === 1)
    input.write(callLine(2, 'version', {}) + '\n')
    await until(() => output.messages().length === 2)
    expect(textOf(output.messages()[1])).toBe('2025-03-26')
  })

  it('stops reading while maxInFlight calls are running', async () => {
    const { input, output } = start({ maxInFlight: 2 })
    maxRunning = 0
    for (let i = 0; i < 6; i++) input.write(callLine(i, 'slow', { ms: 15, tag: `m${i}` }) + '\n')
    await until(() => output.messages().length === 6)
    expect(maxRunning).toBe(2)
  })
})

describe('stdio: ending', () => {
  it('resolves done on EOF only after the calls in flight were answered', async () => {
    const { input, output, handle } = start()
    input.write(callLine(1, 'slow', { ms: 80, tag: 'late' }) + '\n')
    await sleep(5)
    input.end()
    let settled = false
    void handle.done.then(() => {
      settled = true
    })
    await sleep(30)
    expect(settled).toBe(false)
    await handle.done
    expect(output.messages().map(textOf)).toEqual(['late'])
  })

  it('serveStdio resolves once input has ended and every answer is written', async () => {
    const input = new PassThrough()
    const output = new Sink()
    const served = serveStdio(server, { input, output, redirectConsole: false, handleSignals: false })
    input.end(callLine(1, 'slow', { ms: 20, tag: 'a' }) + '\n' + request(2, 'ping') + '\n')
    await served
    expect(output.messages().map((m) => m.id).sort()).toEqual([1, 2])
  })

  it('close() stops reading, still answers the calls in flight, then resolves', async () => {
    const { input, output, handle } = start()
    input.write(callLine(1, 'slow', { ms: 40, tag: 'in-flight' }) + '\n')
    await sleep(5)
    await handle.close()
    expect(output.messages().map(textOf)).toEqual(['in-flight'])
    input.write(request(2, 'ping') + '\n')
    await sleep(30)
    expect(output.messages()).toHaveLength(1)
  })

  it('respects output backpressure: a slow output still gets every answer in full', async () => {
    const sink = new Sink(16, 1)
    const { input, handle } = start({}, sink)
    const n = 60
    const size = 2000
    for (let i = 0; i < n; i++) input.write(callLine(i, 'big', { n: size }) + '\n')
    input.end()
    await handle.done
    await until(() => sink.messages().length === n)
    const all = sink.messages()
    expect(new Set(all.map((m) => m.id)).size).toBe(n)
    for (const m of all) expect(textOf(m)).toHaveLength(size)
  })

  it('resolves done only after the output has handed on every answer, even when it never pushed back', async () => {
    // a roomy buffer: write() says yes at once, the bytes leave later; exiting at `done` must lose nothing
    const sink = new Sink(1 << 20, 30)
    const { input, handle } = start({}, sink)
    input.end(request(1, 'ping') + '\n' + callLine(2, 'big', { n: 100 }) + '\n')
    await handle.done
    expect(sink.messages().map((m) => m.id).sort()).toEqual([1, 2])
  })
})

describe('stdio: console', () => {
  it('sends console.log (and console.dir) to stderr while serving with redirectConsole, and restores it afterwards', async () => {
    const original = { log: console.log, info: console.info, debug: console.debug, error: console.error, dir: console.dir }
    const toStderr: string[] = []
    console.error = (...args: unknown[]) => void toStderr.push(args.join(' '))
    try {
      const { input, output, handle } = start({ redirectConsole: true })
      expect(console.log).toBe(console.error)
      expect(console.info).toBe(console.error)
      expect(console.debug).toBe(console.error)
      input.write(callLine(1, 'shout', {}) + '\n')
      await until(() => output.messages().length === 1)
      expect(output.text).not.toContain('this must not reach the protocol stream')
      expect(toStderr).toEqual(['this must not reach the protocol stream'])
      expect(textOf(output.messages()[0])).toBe('shouted')
      // console.dir writes to stdout by itself: it is pointed at stderr too
      console.dir({ span: { name: 'tools/call add' } }, { depth: 0 })
      expect(toStderr[1]).toBe('{ span: [Object] }')
      input.end()
      await handle.done
      expect(console.dir).toBe(original.dir)
      expect(console.log).toBe(original.log)
      expect(console.info).toBe(original.info)
      expect(console.debug).toBe(original.debug)
    } finally {
      Object.assign(console, original)
    }
  })

  it('leaves console alone with redirectConsole: false', async () => {
    const original = console.log
    start()
    expect(console.log).toBe(original)
  })
})

describe('stdio: notifications and requests to the client on the one stream (MCP: answers matched by id)', () => {
  const ask = emcp({ name: 'ask', description: 'Asks for a name, with progress.', input: { type: 'object' } })
  const asking = mcpServer([ask], { name: 'asking', version: '1' }).implement({
    ask: async (_a, ctx) => {
      ctx.progress(1, 2)
      const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
      ctx.progress(2, 2)
      return r.action === 'accept' ? `hello ${r.content.name}` : r.action
    },
  })

  it('interleaves progress, an elicitation request and the final answer, and matches the client’s answer by id', async () => {
    const input = new PassThrough()
    const output = new Sink()
    const handle = startStdio(asking, { input, output, redirectConsole: false, handleSignals: false })
    input.write(request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } }) + '\n')
    await until(() => output.messages().length === 1)
    input.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask', arguments: {}, _meta: { progressToken: 7 } } }) + '\n')
    await until(() => output.messages().some((m) => m.method === 'elicitation/create'))
    const elicitation = output.messages().find((m) => m.method === 'elicitation/create')
    expect(typeof elicitation.id).toBe('string')
    input.write(JSON.stringify({ jsonrpc: '2.0', id: elicitation.id, result: { action: 'accept', content: { name: 'Ada' } } }) + '\n')
    await until(() => output.messages().some((m) => m.id === 2))
    const after = output.messages().slice(1)
    expect(after.map((m) => m.method ?? `answer ${m.id}`)).toEqual(['notifications/progress', 'elicitation/create', 'notifications/progress', 'answer 2'])
    expect(textOf(after[3])).toBe('hello Ada')
    input.end()
    await handle.done
  })

  it('lets a handler waiting on the client go on when input ends (the request is rejected)', async () => {
    const input = new PassThrough()
    const output = new Sink()
    const handle = startStdio(asking, { input, output, redirectConsole: false, handleSignals: false })
    input.write(request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } }) + '\n')
    input.write(callLine(2, 'ask', {}) + '\n')
    await until(() => output.messages().some((m) => m.method === 'elicitation/create'))
    input.end()
    await handle.done
    const answer = output.messages().find((m) => m.id === 2)
    expect(answer.result.isError).toBe(true)
    expect(textOf(answer)).toContain('closed the connection')
  })
})

describe('stdio: a client that does not read stdout', () => {
  /** A Writable that takes the first chunk and then holds every write until released. */
  class Gate extends Writable {
    text = ''
    private open = false
    private readonly held: Array<() => void> = []
    constructor() {
      super({ highWaterMark: 1024, decodeStrings: false })
    }
    override _write(chunk: Buffer | string, _enc: BufferEncoding, done: (e?: Error | null) => void): void {
      this.text += chunk.toString()
      if (this.open) done()
      else this.held.push(done)
    }
    release(): void {
      this.open = true
      for (const done of this.held.splice(0)) done()
    }
    messages(): any[] {
      return this.text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l))
    }
  }
  const steps = 2000
  let finished = false
  const chatty = emcp({ name: 'chatty', description: 'Reports progress many times, then answers.', input: { type: 'object' } })
  const chattering = mcpServer([chatty], { name: 'chatty', version: '1' }).implement({
    chatty: async (_a, ctx) => {
      for (let i = 1; i <= steps; i++) {
        ctx.progress(i, steps)
        if (i % 100 === 0) await sleep(0)
      }
      finished = true
      return 'done'
    },
  })

  /** Serves the chatty tool over `output` with a 4 KB queue and calls it, asking for progress. */
  const chatter = (output: Writable) => {
    finished = false
    const input = new PassThrough()
    const handle = startStdio(chattering, { input, output, redirectConsole: false, handleSignals: false, maxQueuedBytes: 4096 })
    input.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'chatty', arguments: {}, _meta: { progressToken: 7 } } }) + '\n')
    return { input, handle }
  }

  it('holds at most maxQueuedBytes of progress while blocked, drops the rest, and still delivers the answer in order after it', async () => {
    const output = new Gate()
    const { input, handle } = chatter(output)
    await until(() => finished)
    await sleep(10)
    // the output took two writes of 100 notifications (10 KB each) before it pushed back; the
    // transport then kept at most 4 KB: far below the 200 KB of the 2000 notifications sent
    const unread = output.text.length + output.writableLength
    expect(unread).toBeLessThan(32 * 1024)
    output.release()
    await until(() => output.messages().some((m) => m.id === 1))
    const all = output.messages()
    const progress = all.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress)
    expect(progress.length).toBeGreaterThan(0)
    expect(progress.length).toBeLessThan(steps)
    // the ones kept are the first ones, in order; the answer comes last
    expect(progress).toEqual(progress.map((_, i) => i + 1))
    expect(all[all.length - 1]).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'done' }] } })
    input.end()
    await handle.done
  })

  it('drops nothing while the client reads', async () => {
    const output = new Sink()
    const { input, handle } = chatter(output)
    await until(() => output.messages().some((m) => m.id === 1))
    expect(output.messages().filter((m) => m.method === 'notifications/progress')).toHaveLength(steps)
    input.end()
    await handle.done
  })
})

describe('stdio: the in-flight limit never starves calls that wait on the client', () => {
  it('keeps reading while maxInFlight calls await elicitation answers, so the answers get through', async () => {
    const ask = emcp({ name: 'ask', description: 'Asks the user for a word.', input: { type: 'object' } })
    const asking = mcpServer([ask], { name: 'asking', version: '1' }).implement({
      ask: async (_a, ctx) => {
        const r = await ctx.elicit({ message: 'Word?', requestedSchema: { type: 'object', properties: { w: { type: 'string' } }, required: ['w'] } })
        return r.action === 'accept' ? r.content.w : r.action
      },
    })
    const input = new PassThrough()
    const output = new Sink()
    const handle = startStdio(asking, { input, output, redirectConsole: false, handleSignals: false, maxInFlight: 2 })
    input.write(request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } }) + '\n')
    await until(() => output.messages().length === 1)
    input.write(callLine(1, 'ask', {}) + '\n' + callLine(2, 'ask', {}) + '\n')
    await until(() => output.messages().filter((m) => m.method === 'elicitation/create').length === 2)
    for (const m of output.messages().filter((x) => x.method === 'elicitation/create'))
      input.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { action: 'accept', content: { w: `w-${m.id}` } } }) + '\n')
    await until(() => output.messages().filter((m) => m.id === 1 || m.id === 2).length === 2)
    expect(output.messages().filter((m) => m.id === 1 || m.id === 2).every((m) => textOf(m).startsWith('w-'))).toBe(true)
    input.end()
    await handle.done
  })
})
