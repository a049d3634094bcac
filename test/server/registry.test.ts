/**
 * The registry shared by tools, prompts and resources: order, keys, enable and disable, the
 * derived view recomputed on change and once per batch; and prompts and resources served
 * through it (a disabled one is neither listed nor served).
 */
import { describe, expect, it } from 'vitest'
import { emcp, inMemoryClient, mcpServer, prompt, prompts, resource, resources } from '../../src/index.js'
import { registry } from '../../src/server/registry.js'

describe('registry', () => {
  const make = () => {
    const log = { derived: 0, changed: 0 }
    const r = registry([{ name: 'a' }, { name: 'b' }], {
      noun: 'thing',
      keyOf: (x) => x.name,
      derive: (on) => (log.derived++, on.map((x) => x.name)),
      changed: () => log.changed++,
    })
    return { r, log }
  }

  it('keeps entries in order, derives its view from the enabled ones, and tells each change', () => {
    const { r, log } = make()
    expect(r.view()).toEqual(['a', 'b'])
    r.add({ name: 'c' })
    r.setEnabled('a', false)
    expect(r.view()).toEqual(['b', 'c'])
    expect(r.list().map((x) => x.name)).toEqual(['a', 'b', 'c'])
    expect([r.isEnabled('a'), r.isEnabled('b'), r.isEnabled('zz')]).toEqual([false, true, false])
    expect(r.get('a')).toEqual({ name: 'a' })
    r.setEnabled('a', false) // no change: not told
    expect(log).toEqual({ derived: 3, changed: 2 })
    expect(r.remove('a')).toBe(true)
    expect(r.remove('a')).toBe(false)
    expect(r.view()).toEqual(['b', 'c'])
    expect(log.changed).toBe(3)
  })

  it('refuses a taken key and a key of no entry, naming the noun', () => {
    const { r } = make()
    expect(() => r.add({ name: 'a' })).toThrow('emcp: duplicate thing a')
    expect(() => r.setEnabled('zz', true)).toThrow('emcp: no thing is named zz')
  })

  it('derives and tells once per outermost batch', () => {
    const { r, log } = make()
    r.batch(() => {
      r.add({ name: 'c' })
      r.batch(() => r.setEnabled('b', false))
      r.remove('a')
    })
    expect(log).toEqual({ derived: 2, changed: 1 })
    expect(r.view()).toEqual(['c'])
  })
})

describe('prompts and resources on the registry', () => {
  const noop = emcp({ name: 'noop', description: 'Does nothing.', input: { type: 'object' } })
  const hello = prompt({ name: 'hello', description: 'Say hello.', get: () => 'hello' })
  const bye = prompt({ name: 'bye', description: 'Say bye.', get: () => 'bye' })
  const readme = resource({ uri: 'file:///readme', name: 'readme', read: () => 'read me' })

  it('a disabled prompt is neither listed nor served, until enabled again', async () => {
    const ps = prompts([hello, bye])
    const client = inMemoryClient(mcpServer([noop], { name: 'p', version: '1' }, { features: [ps] }).implement({ noop: () => 'ok' }))
    ps.disable('hello')
    expect(((await client.request('prompts/list')) as { prompts: { name: string }[] }).prompts.map((p) => p.name)).toEqual(['bye'])
    await expect(client.request('prompts/get', { name: 'hello' })).rejects.toThrow(/Unknown prompt: hello/)
    expect(ps.list().map((p) => p.name)).toEqual(['hello', 'bye'])
    ps.enable('hello')
    expect(await client.request('prompts/get', { name: 'hello' })).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] })
    expect(() => ps.enable('nope')).toThrow('emcp: no prompt is named nope')
  })

  it('a disabled resource is neither listed nor read, until enabled again', async () => {
    const rs = resources([readme])
    const client = inMemoryClient(mcpServer([noop], { name: 'r', version: '1' }, { features: [rs] }).implement({ noop: () => 'ok' }))
    rs.disable('file:///readme')
    expect(await client.request('resources/list')).toEqual({ resources: [] })
    await expect(client.request('resources/read', { uri: 'file:///readme' })).rejects.toMatchObject({ code: -32002 })
    rs.enable('file:///readme')
    expect(await client.request('resources/read', { uri: 'file:///readme' })).toEqual({ contents: [{ uri: 'file:///readme', text: 'read me' }] })
  })
})
