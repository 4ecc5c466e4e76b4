import { describeSteadiness, probeSteadiness } from '../../bench/steadiness';

describe('the bench’s machine-steadiness probe', () => {
  it('times the same work repeatedly in CPU time and reports its spread', () => {
    const s = probeSteadiness();
    expect(s.samplesMs.length).toBeGreaterThan(1);
    expect(s.samplesMs.every((ms) => ms > 0)).toBe(true);
    expect(s.minMs).toBe(Math.min(...s.samplesMs));
    expect(s.maxMs).toBe(Math.max(...s.samplesMs));
    expect(s.medianMs).toBeGreaterThanOrEqual(s.minMs);
    expect(s.medianMs).toBeLessThanOrEqual(s.maxMs);
    expect(s.spread).toBeCloseTo(s.maxMs / s.minMs, 10);
    expect(describeSteadiness(s)).toBe(
      `identical work took ${s.minMs.toFixed(0)}–${s.maxMs.toFixed(0)} ms CPU (median ${s.medianMs.toFixed(0)}, max/min ${s.spread.toFixed(2)}×)`,
    );
  });
});
