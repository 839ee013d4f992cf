/**
 * A small LRU bounded by entry count and by total size (the caller says what an entry weighs).
 * Map iteration order is insertion order, so re-inserting on read keeps the oldest first.
 */
export class Lru<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private weight = 0;

  constructor(private readonly maxEntries: number, private readonly maxWeight = Number.POSITIVE_INFINITY) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** An entry heavier than the whole budget is not kept (it would evict everything for nothing). */
  set(key: K, value: V, weight = 0): void {
    this.delete(key);
    if (weight > this.maxWeight || this.maxEntries <= 0) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.weight <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.weight -= entry.weight;
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  get size(): number {
    return this.entries.size;
  }

  get totalWeight(): number {
    return this.weight;
  }
}
