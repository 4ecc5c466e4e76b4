import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { LatencyHistogram } from '../../src/http/metrics';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const LABELS = ['method', 'route', 'status'];

/** The same observations through prom-client's Histogram and ours, each in a registry of its own. */
async function expositions(observations: Array<[string[], number]>): Promise<[string, string]> {
  const theirs = new Registry();
  const reference = new Histogram({ name: 'http_request_duration_seconds', help: 'latency', labelNames: LABELS, buckets: BUCKETS, registers: [theirs] });
  const ours = new Registry();
  const lean = new LatencyHistogram('http_request_duration_seconds', 'latency', LABELS, BUCKETS, ours);
  for (const [values, seconds] of observations) {
    reference.observe(Object.fromEntries(LABELS.map((name, i) => [name, values[i]])), seconds);
    lean.observe(values, seconds);
  }
  return [await theirs.metrics(), await ours.metrics()];
}

describe('LatencyHistogram', () => {
  it('exposes what prom-client’s Histogram exposes for the same observations, bounds and label escapes included', async () => {
    const [theirs, ours] = await expositions([
      [['GET', '/api/v1/distributions', '200'], 0.004],
      [['GET', '/api/v1/distributions', '200'], 0.005],
      [['GET', '/api/v1/distributions', '200'], 0.0051],
      [['POST', '/graphql', '400'], 7],
      [['GET', '/api/v1/units/{id}', '404'], 0.3],
      [['GET', 'a "quoted"\\path\nline', '200'], 1],
    ]);
    expect(ours).toBe(theirs);
    expect(ours).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/v1/distributions",status="200"} 2');
  });

  it('agrees with prom-client over any observations', async () => {
    const value = fc.constantFrom('GET', 'POST', '/graphql', '{id}', '200', '', 'x"y', 'a\\b', 'é');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.tuple(value, value, value), fc.oneof(fc.constantFrom(...BUCKETS, 0, 10), fc.double({ min: 0, max: 10, noNaN: true }))), {
          maxLength: 40,
        }),
        async (observations) => {
          const [theirs, ours] = await expositions(observations);
          expect(ours).toBe(theirs);
        },
      ),
    );
  });
});
