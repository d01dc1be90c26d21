/* eslint-disable -- Test code, never published: n8n's community-node rules (no fs, process, timers, console, child processes…) are for nodes/ and credentials/. */
/**
 * A small OpenAI-compatible chat model on loopback, for n8n's OpenAI Chat Model node (Chat
 * Completions: `POST <base URL>/chat/completions`, not streamed in a manual run). It follows a
 * script of two turns: while the conversation has no tool result yet, it calls the first tool it is
 * offered with the scripted arguments; once the last message is a tool result, it gives the final
 * answer the script writes from that result. Every request is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

export interface ChatTool {
	type: string;
	function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatRequest {
	path: string;
	authorization?: string;
	body: { model?: string; stream?: boolean; messages: ChatMessage[]; tools?: ChatTool[] };
}

export interface FakeOpenAiScript {
	/** The arguments of the tool call (JSON). */
	toolArguments: Record<string, unknown>;
	/** The final answer, from the tool's result as the model receives it (text). */
	answer(toolResult: string): string;
}

export interface FakeOpenAi {
	/** The base URL for n8n's OpenAI credential (field `url`). */
	url: string;
	requests: ChatRequest[];
	close(): Promise<void>;
}

function completion(message: Record<string, unknown>, finishReason: string) {
	return {
		id: `chatcmpl-${Date.now()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: 'fake-model',
		choices: [{ index: 0, finish_reason: finishReason, message }],
		usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
	};
}

function send(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

export async function startFakeOpenAi(script: FakeOpenAiScript): Promise<FakeOpenAi> {
	const requests: ChatRequest[] = [];
	let calls = 0;
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
				send(res, 404, {
					error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' },
				});
				return;
			}
			let body: ChatRequest['body'];
			try {
				body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest['body'];
			} catch {
				send(res, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
				return;
			}
			requests.push({ path: req.url, authorization: req.headers.authorization, body });
			const last = body.messages[body.messages.length - 1];
			if (last?.role === 'tool') {
				const result =
					typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
				send(res, 200, completion({ role: 'assistant', content: script.answer(result) }, 'stop'));
				return;
			}
			const tool = body.tools?.[0];
			if (!tool) {
				send(res, 200, completion({ role: 'assistant', content: 'No tool was offered.' }, 'stop'));
				return;
			}
			calls++;
			send(
				res,
				200,
				completion(
					{
						role: 'assistant',
						content: null,
						tool_calls: [
							{
								id: `call_${calls}`,
								type: 'function',
								function: {
									name: tool.function.name,
									arguments: JSON.stringify(script.toolArguments),
								},
							},
						],
					},
					'tool_calls',
				),
			);
		});
	});
	await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () =>
			new Promise<void>((resolveClose) => {
				server.closeAllConnections();
				server.close(() => resolveClose());
			}),
	};
}
