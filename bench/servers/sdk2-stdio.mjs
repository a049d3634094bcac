/** SDK v2 over stdio: serveStdio with the server factory. */
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { buildServer } from './sdk2-common.mjs'

serveStdio(() => buildServer())
