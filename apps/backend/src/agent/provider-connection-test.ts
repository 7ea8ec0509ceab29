import { contextWindowSchema, type ProviderTestFailureKind, type ProviderTestRequest, type ProviderTestResult } from '@baton/schemas';
import { APICallError } from 'ai';
import { z } from 'zod';
import { describeModelError, PROVIDER_UNREACHABLE } from './model-errors';
import type { Database } from '../db/client';
import { notFound } from '../errors';
import { BlockedPortError, OutboundRefusedError, RedirectRefusedError } from '../outbound/guarded-fetch';
import type { Secrets } from '../secrets/secrets';
import { findProviderWithKey, readProviderApiKey } from '../services/providers';
import { assertSecretStaysHome } from '../services/secret-origin';

/** Long enough for a slow provider's first answer, short enough for someone waiting on a button. */
export const PROVIDER_TEST_TIMEOUT_MS = 10_000;
/** A model list is a few kilobytes; anything far bigger is not one. */
const MAX_BODY_CHARS = 2_000_000;
// What the provider form can store (providerFields.modelIds in @baton/schemas).
const MAX_MODEL_IDS = 200;
const MAX_MODEL_ID_CHARS = 200;

const notAModelList = 'The provider answered, but not with an OpenAI-compatible model list. Is the base URL the API root (usually ending in /v1)?';

// The provider's answer (OpenAI's `GET /models`), not Baton's API contract: the ids, and the
// context window where the server says it — `context_length` (OpenRouter, LM Studio),
// `max_model_len` (vLLM), `max_context_length` (LM Studio's own API). Anything else is ignored.
const reportedWindow = z.number().int().positive().optional().catch(undefined);
const modelListSchema = z
  .object({
    data: z.array(z.object({ id: z.string(), context_length: reportedWindow, max_model_len: reportedWindow, max_context_length: reportedWindow }).loose()),
  })
  .loose();

const failure = (kind: ProviderTestFailureKind, message: string): ProviderTestResult => ({ ok: false, error: { kind, message } });

/** The key to test with: the one typed, else (editing a provider) the stored one, on its own origin only. Never leaves the server. */
async function keyToTestWith(db: Database, secrets: Secrets, workspaceId: string, input: ProviderTestRequest): Promise<string | null> {
  if (input.apiKey !== undefined) return input.apiKey || null;
  if (!input.providerId) return null;
  const row = await findProviderWithKey(db, workspaceId, input.providerId);
  if (!row) throw notFound('Provider', input.providerId);
  // The stored key is tried only where it was entered for: another host gets it typed again.
  assertSecretStaysHome({ storedUrl: row.baseUrl, nextUrl: input.baseUrl, hasStoredSecret: Boolean(row.apiKey), secretGiven: false, field: 'apiKey' });
  return readProviderApiKey(secrets, row);
}

/** Distinct ids in the provider's order, cut to what a provider can store, with the windows the list reports (in what a provider can store). */
function modelsOf(list: z.infer<typeof modelListSchema>): { modelIds: string[]; contextWindows: Record<string, number> } {
  const ids = new Set<string>();
  const contextWindows: Record<string, number> = {};
  for (const entry of list.data) {
    const trimmed = entry.id.trim();
    if (!trimmed || trimmed.length > MAX_MODEL_ID_CHARS || ids.has(trimmed)) continue;
    ids.add(trimmed);
    const window = entry.context_length ?? entry.max_model_len ?? entry.max_context_length;
    if (window !== undefined && contextWindowSchema.safeParse(window).success) contextWindows[trimmed] = window;
    if (ids.size === MAX_MODEL_IDS) break;
  }
  return { modelIds: [...ids], contextWindows };
}

/**
 * Asks the provider for its models (`GET {baseUrl}/models`) through the same guarded fetch
 * model calls use, so what passes here passes at run time. Every failure is a result the
 * form shows, not an HTTP error: the request itself was fine.
 */
export async function testProviderConnection(
  deps: { db: Database; secrets: Secrets; providerFetch: typeof fetch; timeoutMs?: number },
  workspaceId: string,
  input: ProviderTestRequest,
): Promise<ProviderTestResult> {
  const apiKey = await keyToTestWith(deps.db, deps.secrets, workspaceId, input);
  const url = `${input.baseUrl.replace(/\/+$/, '')}/models`;
  const signal = AbortSignal.timeout(deps.timeoutMs ?? PROVIDER_TEST_TIMEOUT_MS);
  let status: number;
  let body: string;
  try {
    const response = await deps.providerFetch(url, {
      headers: { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      signal,
    });
    status = response.status;
    body = await response.text();
  } catch (err) {
    if (err instanceof OutboundRefusedError || err instanceof BlockedPortError) return failure('refused_address', err.message);
    if (err instanceof RedirectRefusedError) return failure('bad_response', err.message);
    if (signal.aborted) {
      const seconds = (deps.timeoutMs ?? PROVIDER_TEST_TIMEOUT_MS) / 1000;
      return failure('timeout', `The provider did not answer within ${seconds} s. Check the base URL and that the provider is running.`);
    }
    return failure('unreachable', PROVIDER_UNREACHABLE);
  }
  if (status >= 400) {
    // The same wording (and key redaction) as a failed model call.
    const message = describeModelError(
      new APICallError({ message: `HTTP ${status}`, url, requestBodyValues: {}, statusCode: status, responseBody: body }),
      apiKey,
    );
    return failure(status === 401 || status === 403 ? 'unauthorized' : 'bad_response', message);
  }
  if (body.length > MAX_BODY_CHARS) return failure('bad_response', notAModelList);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return failure('bad_response', notAModelList);
  }
  const list = modelListSchema.safeParse(parsed);
  if (!list.success) return failure('bad_response', notAModelList);
  return { ok: true, ...modelsOf(list.data) };
}
