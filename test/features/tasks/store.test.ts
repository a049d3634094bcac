import { describe, expect, it, vi } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { isTerminal, taskStore, type DetailedTask, type TaskStore } from '../../../src/index.js'

/** A store on a clock the test moves. */
const clocked = (options: Parameters<typeof taskStore>[0] = {}) => {
  let t = Date.UTC(2026, 6, 28, 12, 0, 0)
  const store = taskStore({ now: () => t, ...options })
  return { store, advance: (ms: number) => void (t += ms) }
}

const created = (store: TaskStore, onAbort?: (reason: string) => void): string => {
  const r = store.create(onAbort)
  if (E.isLeft(r)) throw new Error(r.left.message)
  return r.right.taskId
}

describe('tasks/store: creating and reading', () => {
  it('creates working tasks with unguessable ids (random UUIDs) and ISO 8601 timestamps', () => {
    const store = taskStore()
    const a = created(store)
    const b = created(store)
    expect(a).not.toBe(b)
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const t = store.detailed(a) as DetailedTask
    expect(t.status).toBe('working')
    expect(new Date(t.createdAt).toISOString()).toBe(t.createdAt)
    expect(t.lastUpdatedAt).toBe(t.createdAt)
    expect(t).not.toHaveProperty('result')
    expect(t).not.toHaveProperty('error')
    expect(t).not.toHaveProperty('inputRequests')
  })

  it('carries ttlMs and pollIntervalMs as integer milliseconds, ttlMs null when unlimited', () => {
    const s = taskStore({ ttlMs: 5000, pollIntervalMs: 250 })
    expect(s.detailed(created(s))).toMatchObject({ ttlMs: 5000, pollIntervalMs: 250 })
    const u = taskStore({ ttlMs: null })
    expect(u.detailed(created(u))).toMatchObject({ ttlMs: null, pollIntervalMs: 1000 })
    // ids are the store's own: another store does not know them
    expect(taskStore().detailed(created(s))).toBeUndefined()
  })

  it('knows nothing of ids it did not make', () => {
    const store = taskStore()
    expect(store.get('nope')).toBeUndefined()
    expect(store.detailed('nope')).toBeUndefined()
    expect(store.answer('nope', { 'input-1': {} })).toBe(0)
    expect(store.cancel('nope')).toBe(false)
    expect(store.complete('nope', { content: [] })).toBe(false)
  })

  it('refuses bounds that are not positive integers', () => {
    expect(() => taskStore({ ttlMs: 0 })).toThrow(/ttlMs/)
    expect(() => taskStore({ ttlMs: 1.5 })).toThrow(/ttlMs/)
    expect(() => taskStore({ maxTasks: 0 })).toThrow(/maxTasks/)
    expect(() => taskStore({ pollIntervalMs: -1 })).toThrow(/pollIntervalMs/)
  })

  it('refuses an id maker that repeats itself', () => {
    const store = taskStore({ newId: () => 'same' })
    created(store)
    expect(() => store.create()).toThrow(/taken/)
  })
})

describe('tasks/store: bounds', () => {
  it('keeps a task for the whole of its ttlMs (a task MUST remain accessible until its TTL elapses), then drops it', () => {
    const { store, advance } = clocked({ ttlMs: 1000 })
    const id = created(store)
    store.complete(id, { content: [] })
    advance(999)
    expect(store.detailed(id)?.status).toBe('completed')
    advance(1)
    expect(store.detailed(id)).toBeUndefined()
    expect(store.size()).toBe(0)
  })

  it('aborts the work of a task that expires while it runs, and withdraws its questions', async () => {
    const { store, advance } = clocked({ ttlMs: 1000 })
    const onAbort = vi.fn()
    const id = created(store, onAbort)
    const asked = store.ask(id, { method: 'elicitation/create' })
    advance(1000)
    expect(store.get(id)).toBeUndefined()
    expect(onAbort).toHaveBeenCalledWith(expect.stringMatching(/expired/))
    await expect(asked).rejects.toThrow(/expired/)
  })

  it('sweeps expired tasks when a new one is created', () => {
    const { store, advance } = clocked({ ttlMs: 1000 })
    created(store)
    created(store)
    advance(1000)
    created(store)
    expect(store.size()).toBe(1)
  })

  it('makes room for a new task by dropping the oldest ended one', () => {
    const store = taskStore({ maxTasks: 2 })
    const a = created(store)
    const b = created(store)
    store.complete(b, { content: [] })
    const c = created(store)
    expect(store.get(b)).toBeUndefined()
    expect(store.get(a)?.status).toBe('working')
    expect(store.get(c)?.status).toBe('working')
  })

  it('refuses a new task, as data, when every place holds a running task', () => {
    const store = taskStore({ maxTasks: 1 })
    created(store)
    const r = store.create()
    expect(E.isLeft(r) && r.left).toMatchObject({ _tag: 'InternalError', message: expect.stringMatching(/maxTasks 1/) })
  })

  it('close() aborts every running task and forgets all', () => {
    const store = taskStore()
    const onAbort = vi.fn()
    created(store, onAbort)
    store.complete(created(store), { content: [] })
    store.close()
    expect(onAbort).toHaveBeenCalledOnce()
    expect(store.size()).toBe(0)
  })
})

describe('tasks/store: input requests', () => {
  it('parks the task in input_required with its outstanding requests, keyed uniquely', async () => {
    const store = taskStore()
    const id = created(store)
    const first = store.ask(id, { method: 'elicitation/create', params: { message: 'a?' } })
    const second = store.ask(id, { method: 'sampling/createMessage', params: { maxTokens: 1 } })
    const t = store.detailed(id) as DetailedTask
    expect(t.status).toBe('input_required')
    expect(t.inputRequests).toEqual({
      'input-1': { method: 'elicitation/create', params: { message: 'a?' } },
      'input-2': { method: 'sampling/createMessage', params: { maxTokens: 1 } },
    })
    // partial fulfilment: the answered key goes, the other stays, the task still waits
    expect(store.answer(id, { 'input-1': { action: 'accept', content: { x: 1 } } })).toBe(1)
    await expect(first).resolves.toEqual({ action: 'accept', content: { x: 1 } })
    expect(store.detailed(id)).toMatchObject({ status: 'input_required', inputRequests: { 'input-2': expect.anything() } })
    expect(Object.keys(store.detailed(id)?.inputRequests ?? {})).toEqual(['input-2'])
    store.answer(id, { 'input-2': { role: 'assistant' } })
    await expect(second).resolves.toEqual({ role: 'assistant' })
    expect(store.detailed(id)?.status).toBe('working')
  })

  it('never reuses a key within a task (an answered key cannot answer a later request)', async () => {
    const store = taskStore()
    const id = created(store)
    const first = store.ask(id, { method: 'roots/list' })
    store.answer(id, { 'input-1': { roots: [] } })
    await first
    void store.ask(id, { method: 'roots/list' })
    expect(store.answer(id, { 'input-1': { roots: [] } })).toBe(0)
    expect(Object.keys(store.detailed(id)?.inputRequests ?? {})).toEqual(['input-2'])
  })

  it('ignores responses to keys that are not outstanding', () => {
    const store = taskStore()
    const id = created(store)
    void store.ask(id, { method: 'roots/list' })
    expect(store.answer(id, { 'unknown-key': { ignored: true } })).toBe(0)
    expect(store.detailed(id)?.status).toBe('input_required')
  })

  it('withdraws a request whose signal fires, and goes back to working', async () => {
    const store = taskStore()
    const id = created(store)
    const ac = new AbortController()
    const asked = store.ask(id, { method: 'roots/list' }, { signal: ac.signal })
    ac.abort()
    await expect(asked).rejects.toThrow(/cancelled/)
    expect(store.detailed(id)).toMatchObject({ status: 'working' })
    expect(store.detailed(id)).not.toHaveProperty('inputRequests')
  })

  it('gives up on a request after its timeoutMs', async () => {
    const store = taskStore()
    const id = created(store)
    await expect(store.ask(id, { method: 'roots/list' }, { timeoutMs: 5 })).rejects.toThrow(/timed out after 5 ms/)
    expect(store.detailed(id)?.status).toBe('working')
  })

  it('refuses to ask for an ended task', async () => {
    const store = taskStore()
    const id = created(store)
    store.complete(id, { content: [] })
    await expect(store.ask(id, { method: 'roots/list' })).rejects.toThrow(/ended/)
  })
})

describe('tasks/store: ending', () => {
  it('completes with the result, fails with the JSON-RPC error; both are terminal and final', () => {
    const store = taskStore()
    const ok = created(store)
    const bad = created(store)
    expect(store.complete(ok, { content: [{ type: 'text', text: 'done' }], isError: true })).toBe(true)
    expect(store.fail(bad, { code: -32603, message: 'Internal error: boom' })).toBe(true)
    expect(store.detailed(ok)).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'done' }], isError: true } })
    expect(store.detailed(bad)).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error: boom' } })
    expect(store.detailed(bad)).not.toHaveProperty('result')
    expect(store.complete(bad, { content: [] })).toBe(false)
    expect(store.cancel(ok)).toBe(false)
    expect(store.detailed(ok)?.status).toBe('completed')
    expect((['working', 'input_required', 'completed', 'failed', 'cancelled'] as const).filter(isTerminal)).toEqual(['completed', 'failed', 'cancelled'])
  })

  it('cancel() aborts the work, rejects outstanding requests and says why', async () => {
    const store = taskStore()
    const onAbort = vi.fn()
    const id = created(store, onAbort)
    const asked = store.ask(id, { method: 'roots/list' })
    expect(store.cancel(id, 'no longer needed')).toBe(true)
    expect(onAbort).toHaveBeenCalledWith('no longer needed')
    await expect(asked).rejects.toThrow('no longer needed')
    expect(store.detailed(id)).toEqual(expect.objectContaining({ status: 'cancelled', statusMessage: 'no longer needed' }))
    expect(store.detailed(id)).not.toHaveProperty('inputRequests')
  })

  it('tells listeners every change, as tasks/get would show it', async () => {
    const { store, advance } = clocked()
    const seen: DetailedTask[] = []
    const stop = store.onChange((t) => seen.push(t))
    const id = created(store)
    advance(10)
    const asked = store.ask(id, { method: 'roots/list' })
    store.answer(id, { 'input-1': { roots: [] } })
    await asked
    store.say(id, 'half way')
    store.complete(id, { content: [] })
    stop()
    store.cancel(created(store))
    expect(seen.map((t) => t.status)).toEqual(['input_required', 'working', 'working', 'completed'])
    expect(seen[0]?.inputRequests).toEqual({ 'input-1': { method: 'roots/list' } })
    expect(seen[2]?.statusMessage).toBe('half way')
    expect(seen.at(-1)?.result).toEqual({ content: [] })
    expect(seen.at(-1)?.lastUpdatedAt).not.toBe(seen.at(-1)?.createdAt)
  })
})

describe('tasks/store: named questions', () => {
  it('shows a request under the key the handler gave it, once per task; a used key falls back to input-N', async () => {
    const store = taskStore()
    const id = created(store)
    const first = store.ask(id, { method: 'roots/list' }, { key: 'client_roots' })
    expect(Object.keys(store.detailed(id)?.inputRequests ?? {})).toEqual(['client_roots'])
    store.answer(id, { client_roots: { roots: [] } })
    await first
    void store.ask(id, { method: 'roots/list' }, { key: 'client_roots' })
    expect(Object.keys(store.detailed(id)?.inputRequests ?? {})).toEqual(['input-1'])
  })
})

describe('tasks/store: expiry without readers', () => {
  it('stops a running task when its TTL passes, even if nobody reads the store', async () => {
    const store = taskStore({ ttlMs: 20 })
    const onAbort = vi.fn()
    created(store, onAbort)
    for (const deadline = Date.now() + 15_000; onAbort.mock.calls.length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5))
    expect(onAbort).toHaveBeenCalledWith(expect.stringMatching(/expired/))
  })
})
