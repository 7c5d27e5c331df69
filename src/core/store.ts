// What the core needs from storage: a Kysely instance and which SQL dialect is behind it
// (row locks are spelled differently). Composition roots build it from DATABASE_URL.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { DialectName } from '../db/connection.ts';

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
}

export type Tx = Transaction<Database>;
export type Executor = Kysely<Database> | Tx;
