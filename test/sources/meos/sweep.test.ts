/**
 * The sweep: every one of the 1650 tools called in the real libmeos with generated arguments
 * (a correct value of the subtype each tool's name asks for, test/support/meos-args.ts),
 * 64 calls in flight at a time over two workers. Whatever MEOS does with them (answers,
 * errors, exit(1), SIGSEGV), every call gets an answer, and the server still answers after.
 * It prints how many tools answered without error, per temporal subtype; with
 * EMCP_MEOS_COMPARE=1 it also sweeps with the manifest's typed parsers (the generator's
 * behaviour, about a hundred seconds: many of those calls end their worker), to compare.
 */
import { describe, expect, it } from 'vitest'
import { inMemoryClient } from 'emcp'
import { meosServer } from 'emcp/meos'
import { argumentsFor, temporalSubtypeOf, type SweptTool } from '../../support/meos-args.js'
import { libraryPath, meosData, meosDocuments, skipMeos } from '../../support/meos.js'

type Kind = 'ok' | 'error' | 'ended' | 'deadline'

/** Sweeps every tool; returns each tool's kind of answer. */
const sweep = async (decode: 'universal' | 'manifest'): Promise<ReadonlyMap<string, Kind>> => {
  const tools = (meosDocuments().manifest as { tools: SweptTool[] }).tools
  const meos = await meosServer({ library: libraryPath(), manifest: meosData.manifest, catalog: meosData.catalog, workers: 2, decode })
  const client = inMemoryClient(meos.server)
  const kinds = new Map<string, Kind>()
  try {
    let next = 0
    const lane = async (): Promise<void> => {
      for (let i = next++; i < tools.length; i = next++) {
        const tool = tools[i]!
        const r = await client.callResult(tool.name, argumentsFor(tool))
        const text = r.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
        kinds.set(tool.name, r.isError !== true ? 'ok' : text.includes('ended its worker') ? 'ended' : text.includes('did not finish') ? 'deadline' : 'error')
        if (r.isError === true) expect(text).not.toBe('')
      }
    }
    await Promise.all(Array.from({ length: 64 }, lane))
    // the server survived: it still answers
    expect((await client.callResult('temporal_num_instants', { temp: '{t@2000-01-01, f@2000-01-03}' })).structuredContent).toEqual({ result: 2 })
  } finally {
    await meos.close()
  }
  return kinds
}

/** Tools answered without error, per temporal subtype the tool's name asks for: `ok/all`. */
const bySubtype = (kinds: ReadonlyMap<string, Kind>): Record<string, string> => {
  const counts: Record<string, [number, number]> = {}
  for (const [name, kind] of kinds) {
    const c = (counts[temporalSubtypeOf(name)] ??= [0, 0])
    c[1]++
    if (kind === 'ok') c[0]++
  }
  return Object.fromEntries(Object.entries(counts).map(([k, [ok, all]]) => [k, `${ok}/${all}`]))
}

const tally = (kinds: ReadonlyMap<string, Kind>): Record<Kind, number> => {
  const t: Record<Kind, number> = { ok: 0, error: 0, ended: 0, deadline: 0 }
  for (const k of kinds.values()) t[k]++
  return t
}

describe.skipIf(skipMeos)('the sweep of all 1650 tools', () => {
  it('answers every call, and the server survives', { timeout: 300_000 }, async () => {
    const kinds = await sweep('universal')
    expect(kinds.size).toBe(1650)
    const t = tally(kinds)
    console.log(`meos sweep (universal decode): ${t.ok} answered, ${t.error} MEOS errors, ${t.ended} ended their worker, ${t.deadline} past the deadline`)
    console.log(`meos sweep, answered per subtype: ${JSON.stringify(bySubtype(kinds))}`)
    // the acceptance tools among them answer
    for (const name of ['temporal_copy', 'temporal_num_instants', 'floatset_value_n', 'temporal_merge_array']) expect(kinds.get(name)).toBe('ok')
  })

  it.skipIf(process.env.EMCP_MEOS_COMPARE !== '1')('compares with the manifest\'s typed parsers (EMCP_MEOS_COMPARE=1)', { timeout: 600_000 }, async () => {
    const before = await sweep('manifest')
    const t = tally(before)
    console.log(`meos sweep (manifest decode): ${t.ok} answered, ${t.error} MEOS errors, ${t.ended} ended their worker, ${t.deadline} past the deadline`)
    console.log(`meos sweep (manifest decode), answered per subtype: ${JSON.stringify(bySubtype(before))}`)
    expect(before.size).toBe(1650)
  })
})
