/**
 * Repeated keys in a CSV file, found in bounded memory (csvFile.ts): each row's key is hashed to
 * 52 bits and kept in an open-addressing table of typed arrays (the hash, and the line of the
 * first row with it): 12 bytes a slot, at most two slots a row (the table doubles at half full),
 * outside the JS heap: 1,000,000 rows take 24 MiB. A hash seen before gives the first row's line;
 * the caller confirms that the keys are the same (a 52-bit hash of 1,000,000 keys repeats by
 * chance about once in 10,000 files).
 */

/** Two 32-bit FNV-1a hashes of the key's UTF-16 code units (different offsets), as 52 bits. */
export function keyHash(key: string): number {
	let a = 0x811c9dc5;
	let b = 0x050c5d1f;
	for (let i = 0; i < key.length; i++) {
		const code = key.charCodeAt(i);
		a = Math.imul(a ^ code, 0x01000193);
		b = Math.imul(b ^ code, 0x01000193) ^ (b >>> 15);
	}
	// 32 bits of one, 20 of the other; never 0 (0 marks an empty slot).
	return (a >>> 0) * 0x100000 + (b >>> 12) || 1;
}

const FIRST_SLOTS = 1 << 12;

export class KeyHashes {
	private hashes = new Float64Array(FIRST_SLOTS);
	private lines = new Uint32Array(FIRST_SLOTS);
	private size = 0;

	/** Adds `hash` from `line`; if it was there, the line that added it first (and adds nothing). */
	add(hash: number, line: number): number | undefined {
		if ((this.size + 1) * 2 > this.hashes.length) this.grow();
		const slot = this.find(this.hashes, hash);
		if (this.hashes[slot] === hash) return this.lines[slot];
		this.hashes[slot] = hash;
		this.lines[slot] = line;
		this.size++;
		return undefined;
	}

	/** The slot holding `hash`, or the empty one where it goes (linear probing). */
	private find(hashes: Float64Array, hash: number): number {
		const mask = hashes.length - 1;
		let slot = (hash % hashes.length) & mask;
		while (hashes[slot] !== 0 && hashes[slot] !== hash) slot = (slot + 1) & mask;
		return slot;
	}

	private grow() {
		const { hashes, lines } = this;
		this.hashes = new Float64Array(hashes.length * 2);
		this.lines = new Uint32Array(hashes.length * 2);
		for (let slot = 0; slot < hashes.length; slot++) {
			if (hashes[slot] === 0) continue;
			const to = this.find(this.hashes, hashes[slot]);
			this.hashes[to] = hashes[slot];
			this.lines[to] = lines[slot];
		}
	}
}
