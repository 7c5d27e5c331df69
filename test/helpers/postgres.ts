// Postgres chaos for tests: terminate the backends of one database (what a failover, a restart
// or a network blip does to its connections). Only ever the test's own database.
import pg from 'pg';

/** Terminates every connection to `dbName` except the admin's own; returns how many. */
export async function terminateBackends(dbName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      'select count(*) filter (where pg_terminate_backend(pid)) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [dbName],
    );
    return Number(rows[0].n);
  } finally {
    await admin.end();
  }
}

/** Runs one statement as the admin of DATABASE_URL (the server's own database, never a test's). */
export async function admin(statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}
