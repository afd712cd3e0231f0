import type { ModelEndpointOptions } from '../extraction.types';

/**
 * One JSON-schema chat completion against the optional OpenAI-compatible endpoint, shared by invoice extraction and
 * bank statements: the same client, settings (base URL, key, model, timeout, one retry) and answer handling. Throws
 * on any failure (transport, status, empty or non-object answer); callers keep their rules' answer and warn.
 */
export async function askModelJson(
  options: ModelEndpointOptions,
  request: {
    system: string;
    prompt: string;
    schemaName: string;
    schema: Record<string, unknown>;
    /** PNG data URLs sent with the text (vision models). */
    imageUrls?: string[];
  },
): Promise<Record<string, unknown>> {
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({
    baseURL: options.baseURL,
    apiKey: options.apiKey,
    timeout: options.timeoutMs ?? 30_000,
    maxRetries: 1,
  });
  type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
  const content: Part[] = [{ type: 'text', text: request.prompt }];
  for (const url of request.imageUrls ?? []) content.push({ type: 'image_url', image_url: { url } });
  const response = await client.chat.completions.create({
    model: options.model,
    temperature: 0,
    messages: [
      { role: 'system', content: request.system },
      { role: 'user', content },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: { name: request.schemaName, strict: true, schema: request.schema },
    },
  } as never);
  const raw = (response as { choices?: Array<{ message?: { content?: string | null } }> }).choices?.[0]?.message
    ?.content;
  if (!raw) throw new Error('empty answer');
  const json = JSON.parse(raw.replace(/^```(?:json)?\s*|\s*```$/g, '')) as unknown;
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('answer is not a JSON object');
  return json as Record<string, unknown>;
}
