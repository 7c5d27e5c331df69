// The shape of the user CLI's table of commands (src/cli/commands.gen.ts, derived from the catalog
// of operations by scripts/cli-table.ts). The operation ids and paths are the typed client's, so
// a table that names an operation the client lacks does not type-check.
import type { operations, paths } from '../client/schema.d.ts';
import type { Scope } from '../core/accounts/scopes.ts';

/**
 * How an input field is written: a string, a number, a flag (boolean), a repeatable option
 * (list: `--prompt a --prompt b`; map: `--model openai=gpt-5.1`), a JSON value (or @file), or
 * `null`: a `--no-<field>` flag that sends null (a schedule removed).
 */
export type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'list' | 'map' | 'json' | 'null';

export interface CliField {
  /** The input field; a dotted name is a property of an object field (schedule.cron). */
  field: string;
  /** Where the typed client sends it. */
  in: 'path' | 'query' | 'body';
  kind: FieldKind;
  /** The option without its dashes, or the positional argument's name. */
  flag: string;
  description: string;
  required: boolean;
  choices?: string[];
  /**
   * A JSON field whose objects have one required string property: a bare word stands for it
   * (`--brand Acme` sends {"name":"Acme"}; a list's flag repeats, one object each).
   */
  shorthand?: { key: string; many: boolean };
  /** Also read from a file or stdin (`-`): --<flag>-file; a list one item a line, a text whole. */
  file?: boolean;
  /** The bounds of a number the schema gives (integer, number), checked before anything is sent. */
  min?: number;
  max?: number;
  /** A credit amount, "200.00" or 200: a number 0 or more with at most two decimals. */
  credits?: boolean;
  /** A list of {language, country}: also written as language-country tags (en-US,de-DE). */
  markets?: boolean;
  /** The field takes null in a change: --no-<flag> sends null (--no-budget: no budget any more). */
  nullable?: boolean;
  /** The options this one needs beside it (--timezone needs --cron), without their dashes. */
  needs?: string[];
}

export interface CliCommandDef {
  /** The words after `sightline`. */
  command: string;
  operationId: keyof operations;
  method: 'get' | 'post' | 'patch' | 'delete';
  path: keyof paths;
  description: string;
  args: CliField[];
  options: CliField[];
  /** Input values the command always sends. */
  fixed: Record<string, unknown>;
  /** The operation can answer a file (CSV, JSON Lines): the command takes --output FILE. */
  download: boolean;
  /**
   * The API scope the operation needs; null where it depends on the request (a tracked test needs
   * the create scope of its run kind). `login` and `doctor` name the commands a key cannot use.
   */
  scope: Scope | null;
}
