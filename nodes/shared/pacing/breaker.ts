/**
 * A run's circuit breaker: after `limit` consecutive 429/5xx answers the run stops sending (the
 * service is overloaded or down); any other answer closes it again.
 */
import { PolicyStop, type Failure } from '../errors/errors';
import { stopAfterFailuresOption } from './options';

export class CircuitBreaker {
	private consecutiveFailures = 0;
	private lastFailureStatus?: number;

	constructor(readonly limit: number) {}

	/** Refuses to send once the breaker is open. */
	check() {
		if (this.consecutiveFailures < this.limit) return;
		throw new PolicyStop(
			`Stopped after ${this.consecutiveFailures} consecutive failed answers (HTTP ${this.lastFailureStatus}) from the Seller Platform API`,
			`The service is overloaded or down, so the remaining items were not sent. Try again later; the limit is the node option "${stopAfterFailuresOption.displayName}".`,
			this.lastFailureStatus,
		);
	}

	/** Counts an answer: 429 and 5xx in a row open the breaker, anything else closes it. */
	record(failure?: Failure) {
		const status = failure?.httpStatus;
		if (status !== undefined && (status === 429 || status >= 500)) {
			this.consecutiveFailures++;
			this.lastFailureStatus = status;
		} else if (!failure || status !== undefined) {
			this.consecutiveFailures = 0;
		}
	}
}
