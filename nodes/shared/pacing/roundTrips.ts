/**
 * The round trips of a rate plan's recent requests, from which the node sizes its requests in
 * flight (Little's law: in flight = rate × round trip; `PlanLimiter.suggestedConcurrency`).
 *
 * The estimate is the larger of the mean of the last `recent` round trips and the mean of all those
 * kept: when the latency goes up (a slower gateway, a busier service, a run after runs at another
 * latency) the first few answers at the new latency raise it within one round trip, so the
 * concurrency follows within seconds; when it goes down the estimate comes down as the samples
 * turn over (a higher concurrency than needed costs nothing: the plan still paces the starts).
 */
export const ROUND_TRIPS = {
	/** Round trips kept. */
	samples: 64,
	/** The newest round trips whose mean alone can raise the estimate. */
	recent: 8,
};

export class RoundTrips {
	private readonly values: number[] = [];
	private next = 0;

	/** A request was answered `ms` after it was granted. */
	record(ms: number): void {
		this.values[this.next] = Math.max(0, ms);
		this.next = (this.next + 1) % ROUND_TRIPS.samples;
	}

	/** The round trip to size the requests in flight for, in ms (undefined before any answer). */
	estimate(): number | undefined {
		const count = this.values.length;
		if (!count) return undefined;
		const all = this.values.reduce((sum, value) => sum + value, 0) / count;
		const recent = Math.min(ROUND_TRIPS.recent, count);
		let sum = 0;
		for (let i = 1; i <= recent; i++) {
			sum += this.values[(this.next - i + ROUND_TRIPS.samples) % ROUND_TRIPS.samples];
		}
		return Math.max(all, sum / recent);
	}
}
