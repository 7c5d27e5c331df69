// The operator commands of the bin (src/cli/admin.ts) and the flags each takes, derived from
// their definitions (src/operations/operator/commands.ts), which import nothing: shell
// completion (src/cli/completion.ts) lists them without loading the engine.
import { OPERATOR_COMMANDS, OPERATOR_OPTIONS, type OperatorFlag } from '../operations/operator/commands.ts';

export const OPTIONS = OPERATOR_OPTIONS;
export type Flag = OperatorFlag;

/** The flags each command takes (besides --help); any other flag is a usage error, never ignored. */
export const COMMANDS: Record<string, readonly Flag[]> = Object.fromEntries(OPERATOR_COMMANDS.map((c) => [c.command, c.flags]));
export const SINGLE_WORD = new Set(OPERATOR_COMMANDS.filter((c) => !c.command.includes(' ')).map((c) => c.command));
