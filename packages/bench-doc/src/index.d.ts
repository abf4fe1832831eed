/** docs/benchmarks.md of this repository. */
export declare const BENCHMARKS_FILE: string;
/** The two markers of a section named `name`. */
export declare function markers(name: string): { start: string; end: string };
/** The machine a bench ran on, for its section's first line. */
export declare function machine(): string;
/** Replaces (or appends) the section between `start` and `end` in `file` with `section`. */
export declare function writeSection(start: string, end: string, section: string, file?: string): void;
/** writeSection for the section named `name`. */
export declare function writeNamedSection(name: string, section: string, file?: string): void;
/** Prints the section; with `--write` in `argv` (default process.argv) also writes it. Whether it wrote. */
export declare function publishSection(
  start: string,
  end: string,
  section: string,
  argv?: readonly string[],
  file?: string,
): boolean;
