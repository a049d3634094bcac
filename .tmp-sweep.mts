import { readFileSync } from 'node:fs'
import { meosServer } from './dist/bundle/meos.js'
import { inMemoryClient } from './dist/bundle/index.js'
import { argumentsFor, temporalSubtypeOf } from './test/support/meos-args.ts'
const manifest = JSON.parse(readFileSync('../shared/meos/meos-mcp.json', 'utf8'))
for (const decode of ['manifest', 'universal'] as const) {
  const t0 = Date.now()
  const m = await meosServer({ manifest, catalog: '../shared/meos/meos-idl.json', workers: 2, decode, timeoutMs: 5000, workerScript: process.cwd() + '/dist/bundle/meos-worker.js' })
  const c = inMemoryClient(m.server)
  const stats: Record<string, number> = {}; const bySub: Record<string, [number, number]> = {}
  const crashes: string[] = []
  await Promise.all(manifest.tools.map(async (t: any) => {
    const r: any = await c.callResult(t.name, argumentsFor(t))
    const text = r.content?.[0]?.text ?? ''
    const k = !r.isError ? 'ok' : /ended its worker/.test(text) ? 'crash' : /did not finish/.test(text) ? 'timeout' : 'error'
    stats[k] = (stats[k] ?? 0) + 1
    if (k === 'crash' || k === 'timeout') crashes.push(`${t.name}: ${text.slice(0, 140)}`)
    const sub = temporalSubtypeOf(t.name); bySub[sub] ??= [0, 0]; bySub[sub][1]++; if (k === 'ok') bySub[sub][0]++
  }))
  console.log(decode, Date.now() - t0, 'ms', stats, 'workers started', m.pool.started())
  console.log(JSON.stringify(bySub))
  console.log(crashes.slice(0, 40).join('\n'))
  await m.close()
}
