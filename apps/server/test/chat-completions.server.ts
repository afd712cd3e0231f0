import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call the stand-in received. */
export interface ChatCompletionsRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  authorization: string | undefined;
}

/**
 * A local stand-in for an OpenAI-compatible model endpoint (POST {baseURL}/chat/completions), speaking the wire format
 * the `openai` client reads: the assistant's message content is `answer` as JSON, or the call fails with `failWith`.
 */
export interface ChatCompletionsServer {
  /** The base URL to configure, ending in /v1. */
  readonly baseURL: string;
  readonly requests: ChatCompletionsRequest[];
  /** What the next calls answer; setting it also ends a failure set by `fail`. */
  respond(answer: Record<string, unknown>): void;
  /** The next calls fail with this HTTP status and an OpenAI-style error body. */
  fail(status: number): void;
  close(): Promise<void>;
}

export async function startChatCompletionsServer(answer: Record<string, unknown> = {}): Promise<ChatCompletionsServer> {
  let current = answer;
  let failure: number | null = null;
  const requests: ChatCompletionsRequest[] = [];
  const server = createServer((req, res) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      data += chunk;
    });
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        body: JSON.parse(data || '{}') as Record<string, unknown>,
        authorization: req.headers.authorization,
      });
      if (failure !== null) {
        res.writeHead(failure, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'boom' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 0,
          model: 'local',
          choices: [
            { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(current) } },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    respond(next) {
      current = next;
      failure = null;
    },
    fail(status) {
      failure = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
