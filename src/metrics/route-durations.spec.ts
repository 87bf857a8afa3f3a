import { Metric, Registry } from 'prom-client';
import { RouteDurations } from './route-durations';

async function exposition(durations: RouteDurations): Promise<string> {
  const registry = new Registry();
  registry.registerMetric(durations as unknown as Metric);
  return registry.metrics();
}

describe('RouteDurations', () => {
  it('is served by a prom-client registry as a Prometheus histogram: cumulative buckets, +Inf, sum and count per series', async () => {
    const durations = new RouteDurations('http_request_duration_seconds', 'HTTP request duration', [0.01, 0.1, 1]);
    durations.observe('GET', '/v1/spaces/:spaceId', 200, 0.004);
    durations.observe('GET', '/v1/spaces/:spaceId', 200, 0.05);
    durations.observe('GET', '/v1/spaces/:spaceId', 200, 0.1);
    durations.observe('GET', '/v1/spaces/:spaceId', 200, 3);
    durations.observe('GET', '/v1/spaces/:spaceId', 404, 0.002);
    const text = await exposition(durations);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    const series = '{method="GET",route="/v1/spaces/:spaceId",status="200"';
    expect(text).toContain(`http_request_duration_seconds_bucket${series},le="0.01"} 1`);
    // A value equal to a bound counts in that bucket (Prometheus buckets are "less than or equal").
    expect(text).toContain(`http_request_duration_seconds_bucket${series},le="0.1"} 3`);
    expect(text).toContain(`http_request_duration_seconds_bucket${series},le="1"} 3`);
    expect(text).toContain(`http_request_duration_seconds_bucket${series},le="+Inf"} 4`);
    expect(text).toContain(`http_request_duration_seconds_sum${series}} 3.154`);
    expect(text).toContain(`http_request_duration_seconds_count${series}} 4`);
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/v1/spaces/:spaceId",status="404"} 1');
  });

  it('forgets every series on reset', async () => {
    const durations = new RouteDurations('d', 'h', [1]);
    durations.observe('GET', '/x', 200, 0.5);
    durations.reset();
    expect(await exposition(durations)).not.toContain('d_count');
  });
});
