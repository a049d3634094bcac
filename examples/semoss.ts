/**
 * A SEMOSS manifest served as it is: examples/semoss/py_mcp.json, written the way SEMOSS
 * users write `mcp/py_mcp.json`, read at startup, with one handler per SMSS_FUNCTION_NAME.
 * `celsius_to_fahrenheit` was renamed in the manifest and keeps its handler
 * `CelsiusToFahrenheit`; `SendReport` and `ScheduleAlerts` are `ask` tools (the user reviews
 * their arguments first); `DeleteForecasts` is staged (`disabled`): declared, never served.
 *
 *   node dist/examples/semoss.js                 # stdio
 *   npx emcp call dist/examples/semoss.js SendReport --arg to=ada@example.com --arg city=Oslo --arg days=3
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fromManifest, type Manifest } from 'emcp/manifest'
import { serveStdio } from 'emcp/stdio'
import { runMain } from './main.js'

// beside this file in the sources, two folders up from the compiled one (dist/examples)
const here = dirname(fileURLToPath(import.meta.url))
const file = [join(here, 'semoss', 'py_mcp.json'), join(here, '..', '..', 'examples', 'semoss', 'py_mcp.json')].find((f) => existsSync(f))
if (file === undefined) throw new Error('examples/semoss/py_mcp.json not found')

/** The manifest as SEMOSS keeps it: a JSON file, so its arguments are unknown values to the compiler. */
export const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest

const forecast = (city: string): string => `${city}: 14°C, light rain`

/** The server: handlers keyed by the function each tool dispatches to. */
export const semoss = fromManifest(manifest, {
  GetWeather: ({ city }) => forecast(String(city)),
  CelsiusToFahrenheit: ({ celsius }) => `${(Number(celsius) * 9) / 5 + 32}°F`,
  SendReport: ({ to, city, days, units }) => `sent ${String(days)} days of ${String(city)} (${String(units ?? 'metric')}) to ${String(to)}`,
  ScheduleAlerts: ({ city, range }) => `alerts for ${String(city)} outside ${JSON.stringify(range)}`,
})

export default semoss

runMain(import.meta.url, { usage: 'The SEMOSS manifest served as it is, over stdio:\n\n  node dist/examples/semoss.js', options: {} }, () => serveStdio(semoss))
