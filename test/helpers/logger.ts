/**
 * A logger that records what n8n-core and the nodes log (`this.logger` in a node is
 * `Container.get(Logger)` from @n8n/backend-common), so tests stay quiet and can assert on
 * warnings. Set N8N_TEST_LOG=1 to also print the entries.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { LogMetadata, Logger as WorkflowLogger } from 'n8n-workflow';

export type TestLogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface TestLogEntry {
	level: TestLogLevel;
	message: string;
	metadata?: LogMetadata;
}

export class TestLogger implements WorkflowLogger {
	readonly entries: TestLogEntry[] = [];

	constructor(private readonly echo = process.env.N8N_TEST_LOG === '1') {}

	error(message: string, metadata?: LogMetadata): void {
		this.log('error', message, metadata);
	}

	warn(message: string, metadata?: LogMetadata): void {
		this.log('warn', message, metadata);
	}

	info(message: string, metadata?: LogMetadata): void {
		this.log('info', message, metadata);
	}

	debug(message: string, metadata?: LogMetadata): void {
		this.log('debug', message, metadata);
	}

	/** n8n's Logger API: scoped loggers share this one's entries. */
	scoped(): this {
		return this;
	}

	/** Makes this the logger n8n-core hands to nodes and services. */
	install(): void {
		Container.set(Logger, this as unknown as Logger);
	}

	private log(level: TestLogLevel, message: string, metadata?: LogMetadata): void {
		this.entries.push({ level, message, metadata });
		if (this.echo) process.stderr.write(`[n8n ${level}] ${message}\n`);
	}
}
