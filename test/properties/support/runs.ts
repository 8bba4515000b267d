/**
 * How many cases a property runs: the number given, times PROPERTY_RUNS_SCALE (default 1), so
 * that a longer hunt is one environment variable away (PROPERTY_RUNS_SCALE=20 npx jest test/properties).
 */
export function runs(cases: number): number {
  const scale = Number(process.env.PROPERTY_RUNS_SCALE ?? '1');
  return Math.max(1, Math.round(cases * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}
