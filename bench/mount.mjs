/**
 * The mount rows of the runtime benchmark: calls/s of the benchmark server mounted into
 * another (bench/servers/emcp-mount.mjs) beside the same server served alone (emcp), per
 * transport and load, in the same run; the target is at least 0.95x. One more row reads the
 * servers' own CPU time instead of the clock: calls per second of server CPU under the
 * many-in-flight load, which other processes of a shared machine move far less than calls/s.
 */

const target = 0.95

/** The rows: per transport and load, both figures and their ratio. */
export const mountRowsOf = (medians, metrics, ratio, round) =>
  Object.keys(medians).flatMap((t) => {
    const [alone, through] = ['emcp', 'emcpMount'].map((id) => medians[t][id])
    if (through === undefined || alone === undefined) return []
    const row = (load, a, b) => {
      const x = round(ratio(b, a), 2)
      return { transport: t, load, alone: a, mounted: b, ratio: x, met: x === null ? null : x >= target }
    }
    const perCpuSecond = (usPerCall) => (typeof usPerCall === 'number' && usPerCall > 0 ? round(1e6 / usPerCall) : null)
    return [
      ...['burst', 'c32', 'many'].map((key) => row(metrics.find((m) => m.key === key).label, alone[key], through[key])),
      row('calls per server CPU second, many in flight', perCpuSecond(alone.cpu), perCpuSecond(through.cpu)),
    ]
  })

const transportName = (t) => (t === 'stdio' ? 'stdio' : 'stateless HTTP')

/** Prints the rows. */
export const printMount = (rows, fmt, fmtRatio) => {
  if (rows.length === 0) return
  console.log(`\nemcp through a mount: calls/s beside the same server served alone (target: >= ${target}x)`)
  for (const r of rows)
    console.log(
      `  ${transportName(r.transport).padEnd(14)} ${r.load.padEnd(24)} mounted ${fmt(r.mounted, '/s')}  alone ${fmt(r.alone, '/s')} (${fmtRatio(r.ratio)})  ${r.met === null ? 'n/a' : r.met ? 'met' : 'MISSED'}`,
    )
}

/** The page's section on the rows. */
export const mountPage = (rows, { mark, fmt, fmtRatio, mdTable }) => [
  '### emcp through a mount',
  '',
  'The server **emcp mount** ([bench/servers/emcp-mount.mjs](../bench/servers/emcp-mount.mjs)) is the emcp benchmark server mounted ' +
    'whole into another with `mount([server], info)` ([docs/composition.md](composition.md)): each call is routed by the mount and answered ' +
    `by the part's own method table (a tool not transformed, which the caller may see, with no tool-call middleware or authorization of the whole, is handed straight to the part's \`tools/call\`). ` +
    `Its calls/s beside the same server served alone, in the same run; target: at least ${target}×. The last row of each transport divides ` +
    'the calls by the server process\'s own CPU time (the on-CPU time of its threads, from /proc) under the many-in-flight load, not by the clock: ' +
    'on a shared machine it moves far less than calls/s. On stdio the many-in-flight row is bounded by the driver, which parses every answer ' +
    '(its CPU near 100%, the server\'s near 50%): there the CPU row is the one that weighs the mount.',
  '',
  mdTable([
    ['transport', 'load', 'through a mount', 'alone', 'ratio', 'result'],
    ...rows.map((r) => [transportName(r.transport), r.load, fmt(r.mounted, '/s'), fmt(r.alone, '/s'), fmtRatio(r.ratio), mark(r.met)]),
  ]),
  '',
]
