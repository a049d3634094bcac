/**
 * The PostgreSQL benchmark contract: one immutable SQL function `add(a, b)` whose comment
 * carries `@mcp`, served by emcp as the tool `add` (answer `{ value: a + b }`) and called
 * directly, `SELECT <schema>.add($1, $2)`, by the ceiling; both through `pg` pools of the
 * same size (or PGlite, when no server is given).
 */

/** Connections of each `pg` pool: emcp's default, and the ceiling's. */
export const POOL_MAX = 10

/** The schema's function and its comment. */
export const setupSql = (schema) => `
create schema if not exists ${schema};
create or replace function ${schema}.add(a integer, b integer) returns integer
  language sql immutable parallel safe as $$ select a + b $$;
comment on function ${schema}.add(integer, integer) is '@mcp Adds two integers.';`

/** The ceiling's statement. */
export const directSql = (schema) => `SELECT ${schema}.add($1, $2) AS value`
