// The tool manifest of examples/ops.ts, as `emcp manifest --format ts` writes one: data,
// reviewed like code. Edit a property key here and examples/ops.ts stops compiling.
export default {
  _meta: { 'emcp/server': { name: 'ops', title: 'Database operations', version: '1.0.0' } },
  tools: [
    {
      name: 'drop_table',
      title: 'Drop a table',
      description: 'Delete a table and every row in it. Asks the user first.',
      inputSchema: {
        type: 'object',
        properties: { table: { type: 'string', description: 'The table to drop' } },
        required: ['table'],
        additionalProperties: false,
      },
      annotations: { destructiveHint: true, idempotentHint: false, readOnlyHint: false },
      _meta: { 'emcp/policy': 'ask' },
    },
    {
      name: 'format_disk',
      description: 'Erase the database volume. Declared for the record; disabled.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { destructiveHint: true },
      _meta: { 'emcp/policy': 'disabled' },
    },
    {
      name: 'row_count',
      title: 'Count rows',
      description: 'How many rows a table has.',
      inputSchema: {
        type: 'object',
        properties: { table: { type: 'string', description: 'The table to count' } },
        required: ['table'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: { rows: { type: 'integer' }, exists: { type: 'boolean' } },
        required: ['rows', 'exists'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
  ],
} as const
