/**
 * Tool-search mode on a generated catalog of unit conversions: 70 tools named the C way
 * (`len_km_to_mi`, `temp_c_to_f`), of which `tools/list` shows only `search_tools`,
 * `call_tool` and the pinned `convert_help`. The server's own abbreviations (`len`,
 * `temp`, the unit symbols) join the built-in table, so that "kilometres to miles" finds
 * `len_km_to_mi`. See docs/tool-search.md.
 *
 *   node dist/examples/tool-search.js                          # over stdio
 *   npx emcp call dist/examples/tool-search.js search_tools --arg 'query=celsius to fahrenheit'
 *   npx emcp call dist/examples/tool-search.js call_tool --arg name=temp_c_to_f --arg 'arguments={"value":100}'
 *   npx emcp serve dist/examples/catalog.js --search --pin scalar.add_i8   # any server, from the command line
 */
import { emcp, runtimeTool } from 'emcp'
import { catalogServer, type CatalogEntry } from 'emcp/manifest'
import { serveStdio } from 'emcp/stdio'
import { runMain } from './main.js'

/** Length units: symbol, name, plural, metres in one. */
const lengths = [
  ['mm', 'millimetre', 'millimetres', 0.001],
  ['cm', 'centimetre', 'centimetres', 0.01],
  ['m', 'metre', 'metres', 1],
  ['km', 'kilometre', 'kilometres', 1000],
  ['in', 'inch', 'inches', 0.0254],
  ['ft', 'foot', 'feet', 0.3048],
  ['yd', 'yard', 'yards', 0.9144],
  ['mi', 'mile', 'miles', 1609.344],
] as const

/** Temperature scales: symbol, name, to and from kelvin. */
const temperatures = [
  ['c', 'Celsius', (x: number) => x + 273.15, (k: number) => k - 273.15],
  ['f', 'Fahrenheit', (x: number) => ((x - 32) * 5) / 9 + 273.15, (k: number) => ((k - 273.15) * 9) / 5 + 32],
  ['k', 'kelvin', (x: number) => x, (k: number) => k],
] as const

/** One conversion tool: a number in, the converted number out. */
const conversion = (name: string, description: string, category: string, f: (x: number) => number): CatalogEntry => ({
  // a name made at run time: a runtime tool, its arguments checked by the schema before the handler runs
  tool: runtimeTool({
    name,
    description,
    input: { type: 'object', properties: { value: { type: 'number', title: 'Value to convert' } }, required: ['value'], additionalProperties: false },
    output: { type: 'object', properties: { result: { type: 'number' } }, required: ['result'] },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    _meta: { 'emcp/category': category },
  }),
  handler: ({ value }) => ({ result: f(Number(value)) }),
})

const entries: ReadonlyArray<CatalogEntry> = [
  ...lengths.flatMap(([a, , as, am]) =>
    lengths.filter(([b]) => b !== a).map(([b, , bs, bm]) => conversion(`len_${a}_to_${b}`, `Convert a length from ${as} to ${bs}.`, 'length', (x) => (x * am) / bm)),
  ),
  ...temperatures.flatMap(([a, an, toK]) =>
    temperatures.filter(([b]) => b !== a).map(([b, bn, , fromK]) => conversion(`temp_${a}_to_${b}`, `Convert a temperature from ${an} to ${bn}.`, 'temperature', (x) => fromK(toK(x)))),
  ),
  {
    tool: emcp({ name: 'convert_help', description: 'How to find and call a conversion: search_tools, then call_tool.', input: { type: 'object' } }),
    handler: () => 'Search with search_tools (e.g. "kilometres to miles"), then call the tool it names with call_tool: { "name": "len_km_to_mi", "arguments": { "value": 5 } }.',
  },
]

/** The catalog in tool-search mode: the server's own abbreviations beside the built-in table. */
export const conversions = catalogServer(entries, { name: 'conversions', version: '1.0.0' }, {
  toolSearch: {
    pinned: ['convert_help'],
    abbreviations: {
      len: 'length distance',
      temp: 'temperature',
      ...Object.fromEntries(lengths.map(([s, n, plural]) => [s, `${n} ${plural}`])),
      ...Object.fromEntries(temperatures.map(([s, n]) => [s, n.toLowerCase()])),
    },
  },
})

export default conversions

runMain(import.meta.url, { usage: 'A unit-conversion catalog in tool-search mode, over stdio:\n\n  node dist/examples/tool-search.js', options: {} }, () => serveStdio(conversions))
