/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * The documentation a reader navigates: every relative link and `#anchor` of README.md,
 * CONTRIBUTING.md and docs/*.md leads to a file that exists and, for an anchor, to a heading of
 * that file (GitHub's anchors); the README stays short; every row of its operations table links to
 * the operation's details. No network: links with a scheme (https:, mailto:) are not followed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';

const root = join(__dirname, '..', '..');
const README_MAX_LINES = 350;

/** The documentation files, relative to the repository's root. */
function documentationFiles(): string[] {
	const docs = readdirSync(join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`);
	return ['README.md', 'CONTRIBUTING.md', ...docs];
}

/** The text outside fenced code blocks and inline code, where links and headings are read. */
function prose(markdown: string): string {
	return markdown
		.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
		.replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
}

/**
 * GitHub's anchor of a heading: its text without markup, lower case, every character that is not a
 * letter, a digit, a space, `-` or `_` dropped (so `→`, `:`, `(`), spaces turned into `-`.
 */
function anchorOf(heading: string): string {
	const text = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[`*]/g, '')
		.trim();
	return text
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

/** The anchors of a file's headings; a repeated heading gets `-1`, `-2`, … as on GitHub. */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
	for (const match of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
		const base = anchorOf(match[1]);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

interface Link {
	file: string;
	line: number;
	target: string;
}

/** Every inline link and image of a file: `[text](target)`, `![alt](target "title")`. */
function linksOf(file: string, markdown: string): Link[] {
	const text = prose(markdown);
	return [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => ({
		file,
		line: text.slice(0, match.index).split('\n').length,
		target: match[1],
	}));
}

/** What is wrong with a link, or undefined when it resolves. */
function problemOf(link: Link, read: (path: string) => string): string | undefined {
	if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined;
	const [pathPart, anchor] = link.target.split('#', 2) as [string, string | undefined];
	const path =
		pathPart === ''
			? link.file
			: relative(root, resolve(root, dirname(link.file), decodeURI(pathPart)));
	if (path.startsWith('..')) return `leads outside the repository (${path})`;
	if (!existsSync(join(root, path))) return `no such file: ${path}`;
	if (anchor === undefined) return undefined;
	if (statSync(join(root, path)).isDirectory() || !path.endsWith('.md')) {
		return `an anchor into ${path}, which is no Markdown file`;
	}
	if (!anchorsOf(read(path)).has(anchor)) return `no heading of ${path} has the anchor #${anchor}`;
	return undefined;
}

describe('the documentation', () => {
	const cache = new Map<string, string>();
	const read = (path: string) => {
		if (!cache.has(path)) cache.set(path, readFileSync(join(root, path), 'utf8'));
		return cache.get(path)!;
	};
	const files = documentationFiles();

	it('reads GitHub’s anchors as GitHub writes them', () => {
		expect(anchorOf('FBPI Order → Get')).toBe('fbpi-order--get');
		expect(anchorOf('Sending stock to noon warehouses (FBN)')).toBe(
			'sending-stock-to-noon-warehouses-fbn',
		);
		expect(anchorOf('In the editor: output fields before a run, hints after it')).toBe(
			'in-the-editor-output-fields-before-a-run-hints-after-it',
		);
		expect(anchorOf('Custom API Call: the `HTTP Request` node')).toBe(
			'custom-api-call-the-http-request-node',
		);
		expect([...anchorsOf('# A\n\n```\n# not a heading\n```\n\n## A\n')]).toEqual(['a', 'a-1']);
	});

	it('has the README, CONTRIBUTING.md and pages in docs/', () => {
		expect(files).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md']));
		expect(files.filter((file) => file.startsWith('docs/')).length).toBeGreaterThan(5);
	});

	it('every relative link and anchor leads to an existing file and heading', () => {
		const links = files.flatMap((file) => linksOf(file, read(file)));
		expect(links.length).toBeGreaterThan(100);
		const broken = links
			.map((link) => ({ link, problem: problemOf(link, read) }))
			.filter(({ problem }) => problem !== undefined)
			.map(({ link, problem }) => `${link.file}:${link.line} (${link.target}): ${problem}`);
		expect(broken).toEqual([]);
	});

	it('every page of docs/ starts with a link back to the README', () => {
		for (const file of files.filter((name) => name.startsWith('docs/'))) {
			expect([file, read(file).split('\n')[0]]).toEqual([file, '[← README](../README.md)']);
		}
	});

	it(`the README has at most ${README_MAX_LINES} lines`, () => {
		const lines = read('README.md').replace(/\n$/, '').split('\n');
		expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
	});

	it('every row of the README’s operations table links to the operation’s details in docs/', () => {
		const readme = read('README.md');
		const start = readme.indexOf('| Resource → Operation | API operation | Required |');
		expect(start).toBeGreaterThan(-1);
		const rows = readme.slice(start, readme.indexOf('\n\n', start)).split('\n').slice(2);
		expect(rows.length).toBeGreaterThan(40);
		const withoutDetails = rows.filter((row) => !/\]\(docs\/[\w-]+\.md(#[\w-]+)?\)/.test(row));
		expect(withoutDetails).toEqual([]);
	});
});
