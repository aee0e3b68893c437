/** A result with its own terminal rendering and exit code (`status`); JSON prints `body`. */
export class CommandReport {
  constructor(
    readonly body: object,
    readonly text: string,
    readonly exitCode: number,
  ) {}
}
