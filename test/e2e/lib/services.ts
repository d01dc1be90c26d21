/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * Postgres and Redis for n8n's queue mode, from Debian's packages, on loopback, with their data
 * under `<repo>/.tmp/`: installed with apt-get when missing (the machine must be root), started
 * as throw-away servers of this run, stopped at the end.
 *
 * Postgres refuses to run as root: its data folder belongs to the `postgres` user that Debian's
 * package creates, and its programs run as that user (`runuser`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { freePort } from './n8n';

function run(command: string, args: string[], options: { user?: string } = {}): string {
	const [file, argv] = options.user
		? ['runuser', ['-u', options.user, '--', command, ...args]]
		: [command, args];
	const result = spawnSync(file, argv, { encoding: 'utf8' });
	if (result.status !== 0) {
		throw new Error(
			`${file} ${argv.join(' ')} failed (exit ${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
		);
	}
	return result.stdout;
}

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

function postgresBin(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root)
		.filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? join(root, versions[0], 'bin') : undefined;
}

/** Installs Debian's postgresql and redis-server when they are missing. */
export function ensurePackages(log: (message: string) => void): void {
	if (postgresBin() && has('redis-server')) return;
	log('installing postgresql and redis-server from Debian packages (apt-get) ...');
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
	execFileSync(
		'apt-get',
		['install', '-y', '--no-install-recommends', 'postgresql', 'redis-server'],
		{ stdio: 'inherit', env },
	);
	if (!postgresBin())
		throw new Error('postgresql did not install: no initdb under /usr/lib/postgresql');
}

export interface Services {
	postgres: { host: string; port: number; database: string; user: string; password: string };
	redis: { host: string; port: number };
	stop(): void;
}

/** Starts a fresh Postgres cluster and a Redis server under `dir`. */
export async function startServices(
	dir: string,
	log: (message: string) => void,
): Promise<Services> {
	ensurePackages(log);
	const bin = postgresBin()!;
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	// The postgres user must reach its data folder: every folder above it gets the permission to
	// pass through (o+x, not to list), wherever the repository is (a clone under /root, say).
	for (let folder = dir; ; folder = dirname(folder)) {
		const mode = statSync(folder).mode;
		if (!(mode & 0o001)) chmodSync(folder, (mode & 0o7777) | 0o001);
		if (folder === dirname(folder)) break;
	}
	const pgData = join(dir, 'postgres');
	mkdirSync(pgData, { recursive: true });
	run('chown', ['-R', 'postgres:postgres', pgData]);
	const pgPort = await freePort(55432);
	run(join(bin, 'initdb'), ['-D', pgData, '-U', 'postgres', '-A', 'trust', '--no-sync'], {
		user: 'postgres',
	});
	run(
		join(bin, 'pg_ctl'),
		[
			'-D',
			pgData,
			'-l',
			join(pgData, 'server.log'),
			'-w',
			'-o',
			`-p ${pgPort} -k ${pgData} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
			'start',
		],
		{ user: 'postgres' },
	);
	const password = 'n8n-e2e';
	run(
		join(bin, 'psql'),
		[
			'-h',
			'127.0.0.1',
			'-p',
			String(pgPort),
			'-U',
			'postgres',
			'-v',
			'ON_ERROR_STOP=1',
			'-c',
			`CREATE USER n8n WITH PASSWORD '${password}'`,
			'-c',
			'CREATE DATABASE n8n OWNER n8n',
		],
		{ user: 'postgres' },
	);
	log(`Postgres on 127.0.0.1:${pgPort} (data ${pgData})`);

	const redisDir = join(dir, 'redis');
	mkdirSync(redisDir, { recursive: true });
	const redisPort = await freePort(56379);
	const pidFile = join(redisDir, 'redis.pid');
	run('redis-server', [
		'--port',
		String(redisPort),
		'--bind',
		'127.0.0.1',
		'--daemonize',
		'yes',
		'--save',
		'',
		'--appendonly',
		'no',
		'--dir',
		redisDir,
		'--pidfile',
		pidFile,
		'--logfile',
		join(redisDir, 'redis.log'),
	]);
	for (let i = 0; i < 50 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
	log(`Redis on 127.0.0.1:${redisPort}`);

	return {
		postgres: { host: '127.0.0.1', port: pgPort, database: 'n8n', user: 'n8n', password },
		redis: { host: '127.0.0.1', port: redisPort },
		stop() {
			spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(redisPort), 'shutdown', 'nosave']);
			spawnSync('runuser', [
				'-u',
				'postgres',
				'--',
				join(bin, 'pg_ctl'),
				'-D',
				pgData,
				'-m',
				'fast',
				'stop',
			]);
		},
	};
}

/** What every n8n process of the cluster needs to share its database and queue. */
export function queueEnvironment(services: Services, encryptionKey: string): NodeJS.ProcessEnv {
	return {
		EXECUTIONS_MODE: 'queue',
		N8N_ENCRYPTION_KEY: encryptionKey,
		QUEUE_BULL_REDIS_HOST: services.redis.host,
		QUEUE_BULL_REDIS_PORT: String(services.redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: services.postgres.host,
		DB_POSTGRESDB_PORT: String(services.postgres.port),
		DB_POSTGRESDB_DATABASE: services.postgres.database,
		DB_POSTGRESDB_USER: services.postgres.user,
		DB_POSTGRESDB_PASSWORD: services.postgres.password,
		// Worker and main on one machine: no warning about it, every execution's data saved.
		N8N_MULTI_MAIN_SETUP_ENABLED: 'false',
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'false',
	};
}
