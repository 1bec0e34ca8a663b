import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { createScratchPostgres } from '../apps/server/test/test-database.ts';

/** A fresh, migrated Postgres database for one benchmark, dropped by `drop`. */
export async function benchDatabase(): Promise<{ database: Database; url: string; drop: () => Promise<void> }> {
  const scratch = await createScratchPostgres('sendwell_bench');
  const database = await openDatabase({ url: scratch.url, poolSize: 20 });
  await database.migrate();
  return {
    database,
    url: scratch.url,
    drop: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Samples this process's resident memory while `work` runs and answers the peak in MB. */
export async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 25);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peakMb: peak / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

/** A deterministic pseudo-random sequence (xorshift), so benchmark data is the same every run. */
export function seededRandom(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}
