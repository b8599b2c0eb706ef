// Runs SQL statements (one per argument) in an in-memory DuckDB and prints the rows of
// the last one, a line per row, values separated by single spaces, NULL as "-". Any
// error ends the process with a non-zero status and DuckDB's message on stderr.
import { DuckDBInstance } from '@duckdb/node-api';

const stmts = process.argv.slice(2);
if (stmts.length === 0) {
  console.error('usage: node duckdb.mjs SQL...');
  process.exit(2);
}
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
for (const s of stmts.slice(0, -1)) {
  await conn.run(s);
}
const reader = await conn.runAndReadAll(stmts[stmts.length - 1]);
const lines = reader.getRows().map((row) => row.map((v) => (v === null ? '-' : String(v))).join(' '));
process.stdout.write(lines.map((l) => l + '\n').join(''));
