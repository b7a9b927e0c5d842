/** One `callscope <name>` command. */
export interface CliCommand {
  name: string;
  /** `callscope <usage>`, shown in help. */
  usage: string;
  summary: string;
  /** Runs the command with the arguments after its name; resolves to the process exit code. */
  run(args: string[]): Promise<number>;
}

/** Raised for wrong arguments: printed with the command's usage, exit code 64 (EX_USAGE). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
