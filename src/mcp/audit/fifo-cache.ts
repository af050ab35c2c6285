/**
 * A bounded map that forgets the oldest entry first. `map.delete(map.keys().next().value)` does the same, but V8 keeps
 * a deleted entry's slot until the table is rebuilt, and the iterator walks every such slot from the start: in a full
 * cache of 4,096 that walk cost about 3 µs per insertion, more than screening a short string's cached lookup saves.
 * The ring remembers insertion order, so nothing is walked.
 */
export class FifoCache<V> {
  private readonly map = new Map<string, V>();
  private readonly ring: string[];
  private next = 0;

  constructor(private readonly capacity: number) {
    this.ring = new Array<string>(capacity);
  }

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  /** Only for a key not held (callers set after a miss), so the ring holds each key once. */
  set(key: string, value: V): void {
    if (this.map.size >= this.capacity) this.map.delete(this.ring[this.next] as string);
    this.map.set(key, value);
    this.ring[this.next] = key;
    this.next = (this.next + 1) % this.capacity;
  }
}
