/**
 * The MEOS catalog served in the real libmeos, from a program: the generated manifest and
 * catalog, the library, a few categories, over Streamable HTTP. Each call runs in a worker
 * process, so a MEOS function that ends its process (exit(1), SIGSEGV) answers isError and
 * the worker restarts (docs/meos.md). The same as
 * `emcp meos --manifest … --catalog … --http --port 3000 --category accessor`.
 *
 *   node dist/examples/meos-catalog.js --manifest ../shared/meos/meos-mcp.json --catalog ../shared/meos/meos-idl.json \
 *     --library ~/.cache/emcp-tools/meos-1.3.0/lib/libmeos.so --category accessor --port 3000
 */
import { serveHttp } from 'emcp/http'
import { meosServer } from 'emcp/meos'
import { portOf, runMain } from './main.js'

const usage = `The MEOS catalog in libmeos, over Streamable HTTP:

  node dist/examples/meos-catalog.js --manifest meos-mcp.json --catalog meos-idl.json [--library PATH] [--category C]... [--port N]

--library defaults to $MEOS_LIBRARY_PATH (.ci/meos builds one); --port to 3000.`

runMain(
  import.meta.url,
  {
    usage,
    options: {
      manifest: { type: 'string' },
      catalog: { type: 'string' },
      library: { type: 'string' },
      category: { type: 'string', multiple: true },
      port: { type: 'string', default: '3000' },
    },
  },
  async ({ manifest, catalog, library, category, port }) => {
    if (manifest === undefined || catalog === undefined) throw new Error('--manifest and --catalog are required')
    const meos = await meosServer({
      manifest,
      catalog,
      ...(library === undefined ? {} : { library }),
      ...(category === undefined ? {} : { categories: category }),
      onWarning: (w) => console.error(w),
    })
    const running = await serveHttp(meos.server, { port: portOf(port, 3000) })
    console.error(`${meos.server.tools.length} MEOS tools at ${running.url}`)
    // serveHttp closes on SIGINT and SIGTERM; the workers end with it
    running.server.once('close', () => void meos.close())
  },
)
