import { apiErrorSchema, remoteImageQuerySchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { AppEnv } from '../http/access';
import { errorResponses, jsonResponse, queryParams } from '../http/validation';
import { fetchRemoteImage } from '../services/remote-image';
import type { AppDeps } from './deps';

/**
 * Mounted at /api/image (signed in): a remote image a person clicked "Load image" for. The
 * bytes are served from Baton's own origin, so they must never be taken for a page: the type
 * is one of the raster types checked, sniffing is off, and the answer is a sandboxed document
 * without any resource should someone open it directly.
 */
export function imageRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get(
    '/',
    describeRoute({
      tags: ['Images'],
      summary: "Load a remote image from a chat (the web app's Load image button)",
      description:
        'Fetches `url` from the server (same address rules as providers, no redirects, no credentials) and returns it when it is a PNG, JPEG, GIF, WebP or AVIF image of at most 5 MiB.',
      responses: {
        200: { description: 'The image', content: { 'image/*': { schema: { type: 'string' as const, format: 'binary' } } } },
        400: errorResponses[400],
        401: errorResponses[401],
        502: jsonResponse('The image could not be loaded (the reason is in the message)', apiErrorSchema),
      },
    }),
    queryParams(remoteImageQuerySchema),
    async (c) => {
      const image = await fetchRemoteImage(deps.outbound.providerFetch, c.req.valid('query').url);
      return c.body(image.bytes as Uint8Array<ArrayBuffer>, 200, {
        'content-type': image.contentType,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'content-disposition': 'inline',
        'cache-control': 'private, max-age=3600',
        'cross-origin-resource-policy': 'same-origin',
      });
    },
  );
}
