/**
 * The caches (lib/oci image and SSRF caches, lib/live, the sync memo) are lru-cache instances on
 * the injected clock. What our adapter must get right: a clock that starts at 0 (as tests' do)
 * still expires entries, and a clock step is seen at once (no cached "now").
 */
import { LRUCache } from "lru-cache";
import { lruClock } from "../../lib/lru-clock";

describe("lruClock", () => {
  it.each([0, 1_000_000])("expires an entry set at t=%d exactly after its TTL", (start) => {
    let now = start;
    const cache = new LRUCache<string, string>({ max: 10, ttl: 1000, ...lruClock(() => now) });
    cache.set("a", "A");
    now += 1000;
    expect(cache.get("a")).toBe("A");
    now += 1;
    expect(cache.get("a")).toBeUndefined();
  });

  it("renews an entry read before it goes idle (updateAgeOnGet), and a per-entry TTL wins", () => {
    let now = 0;
    const cache = new LRUCache<string, string>({ max: 10, ttl: 1000, updateAgeOnGet: true, ...lruClock(() => now) });
    cache.set("used", "U");
    cache.set("short", "S", { ttl: 10 });
    for (let i = 0; i < 5; i++) {
      now += 900;
      expect(cache.get("used")).toBe("U");
    }
    expect(cache.get("short")).toBeUndefined();
  });

  it("without the adapter's offset, lru-cache would never expire an entry started at 0 (why it exists)", () => {
    let now = 0;
    const cache = new LRUCache<string, string>({ max: 10, ttl: 1000, perf: { now: () => now }, ttlResolution: 0 });
    cache.set("a", "A");
    now = 5000;
    expect(cache.get("a")).toBe("A");
  });
});
