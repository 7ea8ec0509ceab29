import { z } from 'zod';
import { noNulBytes } from './common';

const userInfo = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i;

/**
 * `GET /api/image?url=`: a remote image from a model's answer, fetched by the backend once the
 * person clicked "Load image" (the web app's Content-Security-Policy lets the page load images
 * only from its own origin and the operator's allow list).
 */
export const remoteImageQuerySchema = z.object({
  url: z
    .url({ protocol: /^https?$/, error: 'must be a valid http(s) URL' })
    .check(noNulBytes)
    .max(4_096)
    .refine((s) => !userInfo.test(s), 'must not contain a user name or password'),
});

/** The image types the backend passes on: raster formats only (an SVG is a document that can script). */
export const REMOTE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'] as const;

/** The largest image the backend passes on. */
export const MAX_REMOTE_IMAGE_BYTES = 5 * 1024 * 1024;
