/**
 * A server imported from a manifest: the tool catalog is data (examples/ops-manifest.ts,
 * the form `emcp manifest --format ts` writes, or a hand-edited file), the handlers are code,
 * and the compiler checks that they fit. Each tool's `_meta["emcp/policy"]` says how it
 * runs: `drop_table` asks the user first (an elicitation), `format_disk` is declared but
 * disabled.
 *
 *   node dist/examples/ops.js            # stdio
 *   npx emcp call dist/examples/ops.js row_count --arg table=users
 */
import { fromManifest } from 'emcp/manifest'
import { serveStdio } from 'emcp/stdio'
import { runMain } from './main.js'
import manifest from './ops-manifest.js'

const tables = new Map<string, number>([
  ['users', 42],
  ['orders', 1337],
])

/** The server: one handler per enabled tool, typed from the manifest. */
export const ops = fromManifest(manifest, {
  row_count: ({ table }) => {
    const rows = tables.get(table)
    return rows === undefined ? { rows: 0, exists: false } : { rows, exists: true }
  },
  drop_table: ({ table }) => (tables.delete(table) ? `dropped ${table}` : `no table ${table}`),
})

export default ops

runMain(import.meta.url, { usage: 'The ops manifest served with its handlers, over stdio:\n\n  node dist/examples/ops.js', options: {} }, () => serveStdio(ops))
