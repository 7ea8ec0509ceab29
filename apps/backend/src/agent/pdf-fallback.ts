import { APICallError, type LanguageModelMiddleware } from 'ai';
import { extractPdfText, type PdfText, pdfTextForModel } from '../services/pdf-text';

// The provider-level types, read off the middleware's own (the backend depends on `ai`, not on @ai-sdk/provider).
type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
type Prompt = CallOptions['prompt'];
type UserContentPart = Extract<Prompt[number], { role: 'user' }>['content'][number];
type FilePart = Extract<UserContentPart, { type: 'file' }>;

/** Statuses with which servers refuse a part of a request they do not take (a `file` part among them). */
const REFUSAL_STATUSES = new Set([400, 415, 422]);

const isPdfPart = (part: { type: string }): part is FilePart => part.type === 'file' && (part as FilePart).mediaType === 'application/pdf';

const hasPdf = (prompt: Prompt) => prompt.some((m) => m.role === 'user' && m.content.some(isPdfPart));

function pdfBytes(part: FilePart): Uint8Array | undefined {
  if (part.data.type !== 'data') return undefined;
  return typeof part.data.data === 'string' ? Buffer.from(part.data.data, 'base64') : part.data.data;
}

/**
 * A provider set to take PDFs as files (`pdfInput`, or `auto` on OpenAI's API) that answers a
 * request with a PDF `file` part with a 400 (a model without file input, a server that does
 * not know the part) gets the request again with each PDF as its extracted text, and so does
 * every later step of this turn: one turn of such a provider costs one refused request, not a
 * failed answer. A provider that answers the text with an error too reports that error. One
 * per turn (it remembers the refusal and the texts it extracted).
 */
export function pdfTextFallback(onFallback: (err: APICallError) => void): LanguageModelMiddleware {
  let refused = false;
  // By name and size within this turn: the prompt's parts are new objects at every step.
  const texts = new Map<string, Promise<PdfText>>();
  const textOf = (part: FilePart, bytes: Uint8Array) => {
    const key = `${part.filename ?? ''}\0${bytes.byteLength}`;
    let text = texts.get(key);
    if (!text) {
      text = extractPdfText(bytes);
      texts.set(key, text);
    }
    return text;
  };
  const asText = async (params: CallOptions): Promise<CallOptions> => ({
    ...params,
    prompt: await Promise.all(
      params.prompt.map(async (message) => {
        if (message.role !== 'user') return message;
        const content = await Promise.all(
          message.content.map(async (part) => {
            const bytes = isPdfPart(part) ? pdfBytes(part) : undefined;
            if (!isPdfPart(part) || !bytes) return part;
            return { type: 'text' as const, text: `File ${part.filename ?? 'a PDF'}:\n${pdfTextForModel(await textOf(part, bytes))}` };
          }),
        );
        return { ...message, content };
      }),
    ),
  });
  return {
    transformParams: async ({ params }) => (refused && hasPdf(params.prompt) ? asText(params) : params),
    wrapStream: async ({ doStream, params, model }) => {
      try {
        return await doStream();
      } catch (err) {
        if (refused || !hasPdf(params.prompt) || !APICallError.isInstance(err) || !REFUSAL_STATUSES.has(err.statusCode ?? 0)) throw err;
        refused = true;
        onFallback(err);
        return model.doStream(await asText(params));
      }
    },
  };
}

/** For the operator's log: which model refused, and the setting that avoids the refused request. */
export const pdfRefusedWarning = (modelId: string, err: APICallError) =>
  `model ${modelId} refused a PDF file part (HTTP ${err.statusCode}); sent the PDF's extracted text instead. Set the provider's "PDF input" to "text" to skip the refused request.`;
