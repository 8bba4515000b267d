/**
 * Sequential ids per kind (`inc_0001`, `sub_0001`, ...): the same calls in the same order
 * give the same ids, which recordings and tests rely on.
 */
export class IdSequences {
  private readonly counters = new Map<string, number>();
  private readonly taken: (id: string) => boolean;

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
    return id;
  }
}
