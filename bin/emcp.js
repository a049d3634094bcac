#!/usr/bin/env node
// The `emcp` executable: runs the compiled command line (dist/src/cli/main.js).
import { existsSync } from 'node:fs'

const main = new URL('../dist/src/cli/main.js', import.meta.url)
if (!existsSync(main)) {
  process.stderr.write('emcp: the command line is not built yet; run `npm run build` in the emcp package\n')
  process.exit(1)
}
await import(main.href)
