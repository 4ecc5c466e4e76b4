import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../src/platform/config';
import { ValidationError } from '../src/domain/errors';

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

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;
type Values<O extends OptionsConfig> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true }>>['values'];

/**
 * A command's options through node:util's parseArgs (strict: an unknown option or a missing value is
 * refused with the usage); `--help`/`-h` prints the usage and exits 0.
 */
export function parseCommandLine<const O extends OptionsConfig>(options: O, usage: string, args = process.argv.slice(2)): Values<O> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } } as OptionsConfig, strict: true });
  } catch (err) {
    throw new CommandError(`${(err as Error).message}\n\n${usage}`);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed.values as Values<O>;
}

/** An integer option's value (at least `min`); absent stays undefined. */
export function integerOption(flag: string, raw: string | undefined, min = 0): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < min) throw new CommandError(`--${flag} expects an integer >= ${min}, got "${raw}"`);
  return n;
}

/** A comma-separated list of integers (each at least `min`); absent stays undefined. */
export function integerListOption(flag: string, raw: string | undefined, min = 0): number[] | undefined {
  return raw?.split(',').map((item) => integerOption(flag, item, min) as number);
}
