/**
 * The proxy rows of the runtime benchmark: calls/s of the benchmark server behind
 * `emcp/proxy` (bench/servers/emcp-proxy.mjs: a second hop on the same transport) beside the
 * same server served directly (emcp), per transport and load, in the same run. Reported, with
 * no target: a proxy adds a whole hop (the SDK client, a second server), so its ratio says
 * what that hop costs.
 */

/** The rows: per transport and load, both figures and their ratio. */
export const proxyRowsOf = (medians, metrics, ratio, round) =>
  Object.keys(medians).flatMap((t) => {
    const [direct, through] = ['emcp', 'emcpProxy'].map((id) => medians[t][id])
    if (through === undefined || direct === undefined) return []
    return ['burst', 'c32', 'many'].map((key) => ({
      transport: t,
      load: metrics.find((m) => m.key === key).label,
      direct: direct[key],
      proxied: through[key],
      ratio: round(ratio(through[key], direct[key]), 2),
    }))
  })

const transportName = (t) => (t === 'stdio' ? 'stdio' : 'stateless HTTP')

/** Prints the rows. */
export const printProxy = (rows, fmt, fmtRatio) => {
  if (rows.length === 0) return
  console.log('\nemcp through `emcp proxy`: calls/s beside the upstream served directly (reported)')
  for (const r of rows)
    console.log(`  ${transportName(r.transport).padEnd(14)} ${r.load.padEnd(24)} proxied ${fmt(r.proxied, '/s')}  direct ${fmt(r.direct, '/s')} (${fmtRatio(r.ratio)})`)
}

/** The page's section on the rows. */
export const proxyPage = (rows, { fmt, fmtRatio, mdTable }) => [
  '### emcp through `emcp proxy`',
  '',
  'The server **emcp proxy** ([bench/servers/emcp-proxy.mjs](../bench/servers/emcp-proxy.mjs)) is a proxy (`emcp/proxy`, ' +
    '[docs/composition.md](composition.md#proxy)) of the emcp benchmark server, which runs as its upstream on the same transport ' +
    '(stdio: a child of the proxy; HTTP: stateless, on a port of its own): each call is checked by the proxy, sent by the official SDK ' +
    'client to the upstream, checked and answered there, and relayed back. Its calls/s beside the upstream served directly, in the same run ' +
    '(reported; the upstream process is not counted in the CPU columns).',
  '',
  mdTable([
    ['transport', 'load', 'through the proxy', 'direct', 'ratio'],
    ...rows.map((r) => [transportName(r.transport), r.load, fmt(r.proxied, '/s'), fmt(r.direct, '/s'), fmtRatio(r.ratio)]),
  ]),
  '',
]
