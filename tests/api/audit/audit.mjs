// Runs the graphql-http server audit against the URL given as the first argument and prints
// one JSON array of {id, name, status, reason} (status: ok | warn | notice | error).
import { auditServer } from 'graphql-http';

const url = process.argv[2];
if (!url) {
  console.error('usage: node audit.mjs http://127.0.0.1:PORT/graphql');
  process.exit(2);
}
const results = await auditServer({ url });
const rows = await Promise.all(results.map(async (r) => ({
  id: r.id,
  name: r.name,
  status: r.status,
  reason: r.status === 'ok' ? null : r.reason,
  body: r.status === 'ok' || !r.response ? null : await r.response.text().catch(() => null),
})));
console.log(JSON.stringify(rows));
