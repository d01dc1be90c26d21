/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * CPU profiles of chosen parts of a benchmark (`npm run bench -- <name> --profile`): V8's
 * sampling profiler through the inspector, the same `.cpuprofile` format `node --cpu-prof` writes
 * (open it in Chrome DevTools or speedscope). Files go to test/bench/profiles/ (not committed); a
 * summary of self time by package and by function goes into the results.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
export const PROFILE_DIR = join(__dirname, 'profiles');

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
}
interface ProfileNode {
	id: number;
	callFrame: CallFrame;
	hitCount?: number;
	children?: number[];
}
export interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples?: number[];
	timeDeltas?: number[];
}

export interface ProfileSummary {
	file: string;
	/** Profiled wall time, ms. */
	totalMs: number;
	/** Self time by where the code lives: our node, n8n-core, n8n-workflow, node internals, … */
	byPlace: Array<{ place: string; ms: number; percent: number }>;
	/** The functions with the most self time. */
	topFunctions: Array<{ function: string; place: string; ms: number; percent: number }>;
}

let session: Session | undefined;

interface HeapProfileNode {
	callFrame: CallFrame;
	selfSize: number;
	children: HeapProfileNode[];
}

/** Bytes allocated during a run, by where the allocating code lives (sampling heap profiler). */
export interface AllocationSummary {
	file: string;
	totalMb: number;
	byPlace: Array<{ place: string; mb: number; percent: number }>;
	topFunctions: Array<{ function: string; place: string; mb: number; percent: number }>;
}

/**
 * Profiles `task`; the summary's shares are of the profiled wall time (idle included). With
 * `allocations`, the sampling heap profiler also records every allocation (collected ones too).
 */
export async function profiled<T>(
	name: string,
	task: () => Promise<T>,
	options: { allocations?: boolean } = {},
): Promise<{ value: T; profile: ProfileSummary; allocations?: AllocationSummary }> {
	if (!session) {
		session = new Session();
		session.connect();
		await session.post('Profiler.enable');
		await session.post('Profiler.setSamplingInterval', { interval: 200 });
		await session.post('HeapProfiler.enable');
	}
	if (options.allocations) {
		await session.post('HeapProfiler.startSampling', {
			samplingInterval: 16 * 1024,
			includeObjectsCollectedByMajorGC: true,
			includeObjectsCollectedByMinorGC: true,
		} as never);
	}
	await session.post('Profiler.start');
	let value!: T;
	let profile!: CpuProfile;
	let heap: { head: HeapProfileNode } | undefined;
	try {
		value = await task();
	} finally {
		({ profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile });
		if (options.allocations) {
			({ profile: heap } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
				profile: { head: HeapProfileNode };
			});
		}
	}
	mkdirSync(PROFILE_DIR, { recursive: true });
	const file = join(PROFILE_DIR, `${name}.cpuprofile`);
	writeFileSync(file, JSON.stringify(profile));
	let allocations: AllocationSummary | undefined;
	if (heap) {
		const heapFile = join(PROFILE_DIR, `${name}.heapprofile`);
		writeFileSync(heapFile, JSON.stringify(heap));
		allocations = summariseAllocations(heap.head, relative(ROOT, heapFile));
	}
	return { value, profile: summariseProfile(profile, relative(ROOT, file)), allocations };
}

export function summariseAllocations(head: HeapProfileNode, file: string): AllocationSummary {
	const byPlace = new Map<string, number>();
	const byFunction = new Map<string, { function: string; place: string; bytes: number }>();
	let total = 0;
	const visit = (node: HeapProfileNode) => {
		if (node.selfSize) {
			total += node.selfSize;
			const place = placeOf(node.callFrame);
			byPlace.set(place, (byPlace.get(place) ?? 0) + node.selfSize);
			const name = `${node.callFrame.functionName || '(anonymous)'}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''}`;
			const key = `${place}|${name}`;
			const entry = byFunction.get(key) ?? { function: name, place, bytes: 0 };
			entry.bytes += node.selfSize;
			byFunction.set(key, entry);
		}
		for (const child of node.children ?? []) visit(child);
	};
	visit(head);
	const toMb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));
	const percent = (bytes: number) => Number(((bytes / (total || 1)) * 100).toFixed(1));
	return {
		file,
		totalMb: toMb(total),
		byPlace: [...byPlace]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 12)
			.map(([place, bytes]) => ({ place, mb: toMb(bytes), percent: percent(bytes) })),
		topFunctions: [...byFunction.values()]
			.sort((a, b) => b.bytes - a.bytes)
			.slice(0, 15)
			.map((f) => ({
				function: f.function,
				place: f.place,
				mb: toMb(f.bytes),
				percent: percent(f.bytes),
			})),
	};
}

/** Where a function lives, from its script URL. */
export function placeOf(frame: CallFrame): string {
	const url = frame.url.replace(/^file:\/\//, '');
	if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
	if (url.startsWith('node:') || !url.includes('/')) return 'node internals';
	const modules = url.lastIndexOf('/node_modules/');
	if (modules !== -1) {
		const rest = url.slice(modules + '/node_modules/'.length).split('/');
		return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
	}
	const local = relative(ROOT, url);
	if (local.startsWith('nodes/') || local.startsWith('credentials/')) return `ours: ${local}`;
	if (local.startsWith('test/')) return `test: ${local.split('/').slice(0, 2).join('/')}`;
	return local;
}

export function summariseProfile(profile: CpuProfile, file: string): ProfileSummary {
	// Leave out the profiler's own Profiler.stop call (under `profiled` of this file).
	const excluded = new Set<number>();
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const exclude = (id: number) => {
		excluded.add(id);
		for (const child of byId.get(id)?.children ?? []) exclude(child);
	};
	for (const n of profile.nodes) {
		if (
			n.callFrame.functionName === 'profiled' &&
			n.callFrame.url.endsWith('test/bench/profile.ts')
		)
			exclude(n.id);
	}
	const self = new Map<number, number>();
	if (profile.samples && profile.timeDeltas) {
		// Each delta is the time until the sample it precedes: charge it to that sample's node.
		profile.samples.forEach((id, i) =>
			self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas![i] ?? 0) / 1000),
		);
	} else {
		const hits = profile.nodes.reduce((total, n) => total + (n.hitCount ?? 0), 0) || 1;
		const wallMs = (profile.endTime - profile.startTime) / 1000;
		for (const n of profile.nodes) self.set(n.id, ((n.hitCount ?? 0) / hits) * wallMs);
	}
	let totalMs = (profile.endTime - profile.startTime) / 1000;
	for (const id of excluded) totalMs -= self.get(id) ?? 0;
	const byPlace = new Map<string, number>();
	const byFunction = new Map<string, { function: string; place: string; ms: number }>();
	for (const node of profile.nodes) {
		const ms = self.get(node.id) ?? 0;
		if (!ms || excluded.has(node.id)) continue;
		const place = placeOf(node.callFrame);
		byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
		const name = `${node.callFrame.functionName || '(anonymous)'}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''}`;
		const key = `${place}|${name}`;
		const entry = byFunction.get(key) ?? { function: name, place, ms: 0 };
		entry.ms += ms;
		byFunction.set(key, entry);
	}
	const percent = (ms: number) => Number(((ms / totalMs) * 100).toFixed(1));
	return {
		file,
		totalMs: Math.round(totalMs),
		byPlace: [...byPlace]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 15)
			.map(([place, ms]) => ({ place, ms: Math.round(ms), percent: percent(ms) })),
		topFunctions: [...byFunction.values()]
			.sort((a, b) => b.ms - a.ms)
			.slice(0, 20)
			.map((f) => ({ ...f, ms: Math.round(f.ms), percent: percent(f.ms) })),
	};
}

// `ts-node test/bench/profile.ts <file.cpuprofile>...`: prints the summary of saved profiles
// (also of profiles written by `node --cpu-prof`).
if (require.main === module) {
	const { readFileSync } = require('node:fs') as typeof import('node:fs');
	for (const file of process.argv.slice(2)) {
		const data = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile | { head: HeapProfileNode };
		if ('head' in data) {
			const summary = summariseAllocations(data.head, file);
			console.log(`\n${summary.file}: ${summary.totalMb} MB allocated`);
			console.table(summary.byPlace);
			console.table(summary.topFunctions);
			continue;
		}
		const summary = summariseProfile(data, file);
		console.log(`\n${summary.file}: ${summary.totalMs} ms profiled`);
		console.table(summary.byPlace);
		console.table(summary.topFunctions);
	}
}
