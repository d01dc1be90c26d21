/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * runner.ts: runPool, which runs a run's items as tasks, started in index order, with at most
 * `limit()` of them at once (read again before each start).
 */
import { runPool } from '../../dist/nodes/SellerPlatform/actions/runner';

/** Tasks that each wait until the test finishes them, recording starts and the most at once. */
function controlledTasks() {
	const started: number[] = [];
	const finishers = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
	let running = 0;
	let mostAtOnce = 0;
	const task = async (index: number) => {
		started.push(index);
		running++;
		mostAtOnce = Math.max(mostAtOnce, running);
		try {
			await new Promise<void>((resolve, reject) => finishers.set(index, { resolve, reject }));
		} finally {
			running--;
		}
	};
	return {
		task,
		started,
		running: () => running,
		mostAtOnce: () => mostAtOnce,
		finish: (index: number) => finishers.get(index)!.resolve(),
		fail: (index: number, error: Error) => finishers.get(index)!.reject(error),
	};
}

/** Lets every pending promise callback run. */
const flush = async () => await new Promise<void>((resolve) => setImmediate(resolve));

describe('runPool', () => {
	it('runs every index once, started in index order, and ends when the last task ends', async () => {
		const tasks = controlledTasks();
		let done = false;
		const pool = runPool(5, () => 2, tasks.task).then(() => (done = true));
		await flush();
		expect(tasks.started).toEqual([0, 1]);
		for (const index of [1, 0, 3, 2]) {
			tasks.finish(index);
			await flush();
		}
		expect(tasks.started).toEqual([0, 1, 2, 3, 4]);
		expect(done).toBe(false); // task 4 still runs
		tasks.finish(4);
		await pool;
		expect(done).toBe(true);
	});

	it('keeps the results in index order when the tasks end in another order', async () => {
		const results: string[] = [];
		await runPool(
			6,
			() => 3,
			async (index) => {
				await new Promise((resolve) => setTimeout(resolve, (6 - index) * 5));
				results[index] = `item ${index}`;
			},
		);
		expect(results).toEqual(['item 0', 'item 1', 'item 2', 'item 3', 'item 4', 'item 5']);
	});

	it.each([1, 3, 7])('runs at most %i tasks at once, and that many when it can', async (limit) => {
		const tasks = controlledTasks();
		const pool = runPool(20, () => limit, tasks.task);
		for (let finished = 0; finished < 20; finished++) {
			await flush();
			expect(tasks.running()).toBe(Math.min(limit, 20 - finished));
			tasks.finish(finished);
		}
		await pool;
		expect(tasks.mostAtOnce()).toBe(limit);
		expect(tasks.started).toHaveLength(20);
	});

	it('reads the limit again before each start', async () => {
		const tasks = controlledTasks();
		let limit = 1;
		const pool = runPool(10, () => limit, tasks.task);
		await flush();
		expect(tasks.running()).toBe(1);
		limit = 4;
		tasks.finish(0);
		await flush();
		expect(tasks.started).toEqual([0, 1, 2, 3, 4]);
		expect(tasks.running()).toBe(4);
		limit = 2;
		for (const index of [1, 2, 3]) tasks.finish(index);
		await flush();
		expect(tasks.running()).toBe(2); // tasks 4 and 5: no start until fewer than 2 run
		for (let index = 4; index < 10; index++) {
			tasks.finish(index);
			await flush();
		}
		await pool;
		expect(tasks.started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
	});

	it.each([0, -3])('runs one task at a time when the limit is %s', async (limit) => {
		const tasks = controlledTasks();
		const pool = runPool(3, () => limit, tasks.task);
		for (let index = 0; index < 3; index++) {
			await flush();
			expect(tasks.started).toEqual([0, 1, 2].slice(0, index + 1));
			tasks.finish(index);
		}
		await pool;
		expect(tasks.mostAtOnce()).toBe(1);
	});

	it('ends at once for no items, calling no task', async () => {
		const task = jest.fn(async () => {});
		await runPool(0, () => 4, task);
		expect(task).not.toHaveBeenCalled();
	});

	it("fails with a task's error", async () => {
		const tasks = controlledTasks();
		const pool = runPool(4, () => 2, tasks.task);
		await flush();
		const failure = new Error('item 1 failed');
		tasks.fail(1, failure);
		await expect(pool).rejects.toBe(failure);
		expect(tasks.started).toEqual([0, 1]); // nothing started in the failed task's place
	});
});
