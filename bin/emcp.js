#!/usr/bin/env node
// The `emcp` executable: runs the bundled command line (dist/bundle/cli-main.js), the same
// module graph that `import 'emcp'` loads, so a served module shares its classes with it.
import { existsSync } from 'node:fs'

const main = new URL('../dist/bundle/cli-main.js', import.meta.url)
if (!existsSync(main)) {
  process.stderr.write('emcp: the command line is not built yet; run `npm run build` in the emcp package\n')
  process.exit(1)
}
await import(main.href)
