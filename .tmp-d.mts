import { meosServer } from './dist/bundle/meos.js'
import { inMemoryClient } from './dist/bundle/index.js'
import { argumentsFor } from './test/support/meos-args.ts'
import { readFileSync } from 'node:fs'
const manifest = JSON.parse(readFileSync('../shared/meos/meos-mcp.json', 'utf8'))
const m = await meosServer({ manifest, catalog: '../shared/meos/meos-idl.json', workers: 1, workerScript: process.cwd() + '/dist/bundle/meos-worker.js' })
const c = inMemoryClient(m.server)
for (const n of ['temporal_copy', 'temporal_num_instants', 'floatset_value_n', 'temporal_merge_array']) { const t = manifest.tools.find((t: any) => t.name === n); const a = argumentsFor(t); console.log(n, JSON.stringify(a), JSON.stringify(await c.callResult(n, a)).slice(0, 300)) }
await m.close()
