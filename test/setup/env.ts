/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// n8n-core writes ~/.n8n/config on first use: keep it in a throw-away folder.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-seller-platform-test-'));
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
