/** Nearest-rank percentile of unsorted samples (p in 0..100). Exact, not interpolated, so it is a value that was measured. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** Rounded for reports: figures with more digits than their noise only mislead. */
export const round = (value: number, digits = 3): number => Number(value.toFixed(digits));
