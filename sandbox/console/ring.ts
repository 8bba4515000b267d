/** A fixed-size list that keeps the newest items: the console's memory stays bounded however long the sandbox runs. */
export class Ring<T> {
  private readonly items: T[] = [];
  private readonly size: number;

  constructor(size: number) {
    this.size = size;
  }

  push(item: T): void {
    this.items.push(item);
    // Dropped in chunks rather than one shift a push: a shift is linear in the length.
    if (this.items.length > this.size * 1.25) this.items.splice(0, this.items.length - this.size);
  }

  /** The newest `count` (default all kept), oldest first. */
  newest(count = this.size): T[] {
    return this.items.slice(-Math.min(count, this.size));
  }

  /** Items after the first one `after` accepts, oldest first; undefined when none kept is accepted. */
  since(isMark: (item: T) => boolean): T[] | undefined {
    const kept = this.newest();
    const index = kept.findIndex(isMark);
    return index === -1 ? undefined : kept.slice(index + 1);
  }
}
