/**
 * The store: a small shop in an embedded PostgreSQL (PGlite), served by `emcp/postgres`. Its
 * tools are the SQL functions whose comment carries `@mcp`; `place_order` and `my_orders`
 * carry `@authorize customer`, so only callers whose bearer token gives them the role
 * `customer` see and call them.
 *
 *   node dist/examples/store.js --http --port 3001   (or --stdio, where no caller has a token)
 *
 * `npm start` serves it beside the calculator (examples/start.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Identity } from 'emcp'
import { serveHttp } from 'emcp/http'
import { serveStdio } from 'emcp/stdio'
import { fromPostgres, pglite, type PostgresTools } from 'emcp/postgres'
import { portOf, runMain } from './main.js'

/** The schema, its data and its annotated functions. */
export const storeSql = `
create schema store;

create table store.products (
  id serial primary key,
  name text not null unique,
  price numeric(10,2) not null check (price >= 0),
  stock integer not null check (stock >= 0)
);
create table store.orders (
  id serial primary key,
  product_id integer not null references store.products,
  quantity integer not null check (quantity > 0),
  customer text not null,
  total numeric(10,2) not null,
  placed_at timestamptz not null default now()
);
insert into store.products (name, price, stock) values
  ('green tea', 4.50, 40), ('teapot', 29.90, 5), ('mug', 7.25, 12), ('honey', 6.80, 0);

create function store.list_products(_max_price numeric default null)
returns table (id integer, name text, price numeric, stock integer)
language sql stable as $$
  select id, name, price, stock from store.products
  where _max_price is null or price <= _max_price order by id
$$;
comment on function store.list_products is 'Lists the products on sale with their price and stock.
@mcp
@mcp_description Lists the products on sale (id, name, price as a decimal string, stock); max_price filters.';

create function store.place_order(_product_id integer, _quantity integer default 1)
returns store.orders
language plpgsql as $$
declare
  p store.products;
  o store.orders;
begin
  select * into p from store.products where id = _product_id for update;
  if not found then
    raise exception 'there is no product %', _product_id using errcode = 'P0002', hint = 'list_products gives the ids';
  end if;
  if p.stock < _quantity then
    raise exception 'only % left of %', p.stock, p.name using errcode = 'P0001', hint = 'order fewer';
  end if;
  update store.products set stock = stock - _quantity where id = _product_id;
  insert into store.orders (product_id, quantity, customer, total)
  values (_product_id, _quantity, coalesce(nullif(current_setting('emcp.subject', true), ''), 'anonymous'), p.price * _quantity)
  returning * into o;
  return o;
end
$$;
comment on function store.place_order is '@mcp Orders a quantity of a product for the caller; returns the order with its total.
@authorize customer';

create function store.my_orders()
returns setof store.orders
language sql stable as $$
  select * from store.orders where customer = current_setting('emcp.subject', true) order by id
$$;
comment on function store.my_orders is 'The orders the caller placed, oldest first.
@mcp
@authorize customer';
`

/** The demo's one bearer token and who it stands for. */
export const demoToken = 'demo-customer-token'
export const demoIdentity: Identity = { subject: 'demo-customer', roles: ['customer'] }

/**
 * Verifies the demo token (a real deployment checks a JWT or asks its identity provider), in
 * constant time: how long a wrong guess takes says nothing about how much of it was right.
 */
export const verifyDemoToken = (token: string): Identity | undefined => {
  const given = createHash('sha256').update(token).digest()
  return timingSafeEqual(given, demoTokenHash) ? demoIdentity : undefined
}
const demoTokenHash = createHash('sha256').update(demoToken).digest()

/** A fresh store in memory, served. */
export const openStore = async (): Promise<PostgresTools> => {
  const db = await pglite()
  await db.exec(storeSql)
  return fromPostgres(db, {
    schemas: ['store'],
    name: 'store',
    instructions: 'list_products shows what is on sale; place_order (customers only) buys; my_orders lists your orders.',
    listen: 'emcp_reload',
  })
}

const usage = `The PGlite-backed store (list_products, place_order, my_orders).

  node dist/examples/store.js [--stdio]                 over stdio, where no caller has a token
  node dist/examples/store.js --http [--port 3001]      over HTTP, with the demo bearer token`

const options = { stdio: { type: 'boolean' }, http: { type: 'boolean' }, port: { type: 'string' } } as const

runMain(import.meta.url, { usage, options }, async ({ http, port }) => {
  const store = await openStore()
  if (http !== true) {
    await serveStdio(store.server)
    return
  }
  const running = await serveHttp(store.server, {
    port: portOf(port, 3001),
    sessions: true,
    auth: { verify: verifyDemoToken },
  })
  console.log(`store MCP server listening on ${running.url}\ndemo bearer token (role customer): ${demoToken}`)
})
