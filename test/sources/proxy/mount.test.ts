/**
 * A proxy is a server value: examples/proxy.ts mounts a proxy of the calculator (served over
 * HTTP on 127.0.0.1) under `calc` beside a local tool, typed by the calculator's snapshot
 * (examples/calculator.manifest.ts): the mounted names, the typed calls, and the prompts and
 * resources of a proxied upstream under a namespace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inMemoryClient, mount, mounted } from '../../../src/index.js'
import { serveHttp, type RunningHttp } from '../../../src/transport/http.js'
import { proxy } from '../../../src/sources/proxy/index.js'
import { calculator } from '../../../examples/calculator.js'
import { everything } from '../../../examples/everything.js'
import { gateway } from '../../../examples/proxy.js'

describe('a proxy mounted under a namespace', () => {
  let calc: RunningHttp
  let all: RunningHttp

  beforeAll(async () => {
    calc = await serveHttp(calculator, { port: 0, host: '127.0.0.1' })
    all = await serveHttp(everything, { port: 0, host: '127.0.0.1', sessions: true })
  })
  afterAll(async () => {
    await calc?.close()
    await all?.close()
  })

  it('examples/proxy.ts: calc_add, typed by the snapshot, next to the local hello', async () => {
    const g = await gateway(calc.url)
    const c = inMemoryClient(g)
    expect((await c.list()).map((t) => t.name)).toEqual(['hello', 'calc_add', 'calc_echo', 'calc_add_days'])
    const { sum } = await c.call('calc_add', { a: 40, b: 2 })
    const n: number = sum
    expect(n).toBe(42)
    // @ts-expect-error: b is a number in the snapshot
    expect((await c.callResult('calc_add', { a: 1, b: 'x' })).isError).toBe(true)
  })

  it('the prompts and resources of a proxied server mount under its namespace too', async () => {
    const remote = await proxy({ url: all.url })
    try {
      const whole = mount([mounted(remote, 'up')], { name: 'whole', version: '1' })
      const c = inMemoryClient(whole)
      const { prompts } = (await c.request('prompts/list')) as { prompts: Array<{ name: string }> }
      expect(prompts.map((p) => p.name)).toContain('up_test_simple_prompt')
      const got = (await c.request('prompts/get', { name: 'up_test_prompt_with_arguments', arguments: { arg1: 'x', arg2: 'y' } })) as { messages: unknown[] }
      expect(got.messages).toHaveLength(1)
      const read = (await c.request('resources/read', { uri: 'test://static-text' })) as { contents: Array<{ text: string }> }
      expect(read.contents[0]?.text).toBe('This is the content of the static text resource.')
      expect(await c.callResult('up_test_simple_text', {})).toMatchObject({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] })
    } finally {
      await remote.close()
    }
  })
})
