/** One line per case with its time, for the e2e's scenarios: what ran, what it showed, how long it took. */
export interface CaseResult {
  name: string;
  ok: boolean;
  seconds: number;
  detail: string;
}

export interface Cases {
  readonly results: readonly CaseResult[];
  /** Runs one case, prints its line; false when it failed (the error's message is its detail). */
  check(name: string, work: () => Promise<string>): Promise<boolean>;
  /** "All N cases passed in T s." or "F of N cases failed in T s."; sets the exit code. */
  finish(): void;
}

export function cases(): Cases {
  const started = performance.now();
  const results: CaseResult[] = [];
  return {
    results,
    async check(name, work) {
      const begin = performance.now();
      let ok = true;
      let detail: string;
      try {
        detail = await work();
      } catch (error) {
        ok = false;
        detail = (error as Error).message;
      }
      const seconds = (performance.now() - begin) / 1000;
      results.push({ name, ok, seconds, detail });
      const [first, ...more] = detail.split('\n');
      console.log(`${ok ? '✔' : '✘'} ${name.padEnd(48)} ${first}  ${seconds.toFixed(1)} s${more.length ? `\n${more.join('\n')}` : ''}`);
      return ok;
    },
    finish() {
      const failed = results.filter((r) => !r.ok);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`${failed.length ? `${failed.length} of ${results.length} cases failed` : `All ${results.length} cases passed`} in ${seconds} s.`);
      process.exitCode = failed.length ? 1 : 0;
    },
  };
}

export function expect(condition: boolean, problem: string): void {
  if (!condition) throw new Error(problem);
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The engine line named by `--line` (default: the project Node's), or exit 2 naming the lines. */
export function lineFromArgs<T>(lines: Readonly<Record<string, T>>, fallback: T, value: string | undefined): T {
  if (value === undefined) return fallback;
  if (Object.hasOwn(lines, value)) return lines[value]!;
  console.error(`No n8n line "${value}": the lines are ${Object.keys(lines).join(', ')}.`);
  process.exit(2);
}
