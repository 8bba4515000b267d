/**
 * Sequential ids per kind (`inc_0001`, `sub_0001`, ...): the same calls in the same order
 * give the same ids, which recordings and tests rely on.
 */
export class IdSequences {
  private readonly counters = new Map<string, number>();
  private readonly taken: (id: string) => boolean;
  /** Told after every id handed out, so a state file can keep the counters. */
  onChange: () => void = () => {};

  /** `taken` lets seeded ids and generated ones share a kind without ever colliding. */
  constructor(taken: (id: string) => boolean = () => false) {
    this.taken = taken;
  }

  next(prefix: string): string {
    let id: string;
    do {
      const n = (this.counters.get(prefix) ?? 0) + 1;
      this.counters.set(prefix, n);
      id = `${prefix}_${String(n).padStart(4, '0')}`;
    } while (this.taken(id));
    this.onChange();
    return id;
  }

  /** The last number handed out per kind. */
  snapshot(): Record<string, number> {
    return Object.fromEntries(this.counters);
  }

  /** Continues after the given counters (a restart), never going back on a counter. */
  restore(counters: Readonly<Record<string, number>>): void {
    for (const [prefix, n] of Object.entries(counters)) {
      this.counters.set(prefix, Math.max(n, this.counters.get(prefix) ?? 0));
    }
  }
}
