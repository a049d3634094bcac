/** The tasks extension through a mount: a client is never handed a task it cannot poll through the whole. */
import { describe, expect, it } from 'vitest'
import { emcp, mcpServer, mount, mounted, tasks } from '../../src/index.js'
import { meta, send } from '../features/tasks/support.js'

const slow = emcp({ name: 'slow', description: 'Waits a turn of the event loop.', input: { type: 'object' }, taskSupport: 'optional' })
const quick = emcp({ name: 'quick', description: 'Answers at once.', input: { type: 'object' } })

/** A handler that waits past a turn of the event loop: served alone with tasks(), it is handed off to a task. */
const jobsOf = () =>
  mcpServer([slow], { name: 'jobs', version: '1' }, { features: [tasks()] }).implement({
    slow: async () => {
      await new Promise((r) => setImmediate(r))
      return 'done'
    },
  })
const plainOf = () => mcpServer([quick], { name: 'plain', version: '1' }).implement({ quick: () => 'now' })

describe('mount: the tasks extension of a part', () => {
  it('a part served alone hands the call off to a task (the case the mount must not leak)', async () => {
    const r = await send(jobsOf(), 'tools/call', { name: 'slow', arguments: {} })
    expect(r.result?.resultType).toBe('task')
  })

  it('a call through a mount that does not carry the extension is answered inline, not as a task', async () => {
    const whole = mount([mounted(jobsOf(), 'jobs'), plainOf()], { name: 'whole', version: '1' })
    const r = await send(whole, 'tools/call', { name: 'jobs_slow', arguments: {} })
    expect(r.error).toBeUndefined()
    expect(r.result?.resultType).toBe('complete')
    expect(r.result?.content).toEqual([{ type: 'text', text: 'done' }])
    // with transforms and the whole's tool-call middleware on the way, the same
    const renamed = mount([mounted(jobsOf(), 'jobs', { tools: { slow: { name: 'later' } } })], { name: 'whole', version: '1' }, { middleware: [{ toolCall: (_c, next) => next() }] })
    const t = await send(renamed, 'tools/call', { name: 'jobs_later', arguments: {} })
    expect(t.result?.resultType).toBe('complete')
    expect(t.result?.content).toEqual([{ type: 'text', text: 'done' }])
    // a client without the extension, as before
    const plain = await send(whole, 'tools/call', { name: 'jobs_slow', arguments: {} }, meta({}, false))
    expect(plain.result?.content).toEqual([{ type: 'text', text: 'done' }])
  })
})
