import { ConfigError } from '../src/config';
import { ValidationError } from '../src/errors';

/** An operator command's refusal: printed as one line, exit status 1, no stack trace. */
export class CommandError extends Error {}

/**
 * Runs an operator command. What the operator can fix (a configuration value, a refused argument,
 * invalid input) is one line on stderr; anything unexpected keeps its stack for the bug report.
 */
export function runCommand(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    if (err instanceof ValidationError) console.error(`Invalid input: ${Object.values(err.fields).flat().join(' ')}`);
    else if (err instanceof ConfigError || err instanceof CommandError) console.error(err.message);
    else console.error(err);
    process.exit(1);
  });
}
