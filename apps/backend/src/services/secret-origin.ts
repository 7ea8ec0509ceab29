import { errorCodes, secretOriginChanged } from '@baton/schemas';
import { AppError } from '../errors';

/**
 * A stored secret follows its URL only within the origin it was entered for (the rule is
 * `secretOriginChanged` of @baton/schemas, shared with the forms). Anything else would let
 * whoever may edit the URL — an admin, or a stolen admin session — send a write-only key to
 * a host of their choosing.
 */
export function assertSecretStaysHome(what: {
  storedUrl: string;
  nextUrl: string | undefined;
  hasStoredSecret: boolean;
  secretGiven: boolean;
  field: 'apiKey' | 'headers';
}) {
  if (what.nextUrl === undefined || !what.hasStoredSecret || what.secretGiven) return;
  if (!secretOriginChanged(what.storedUrl, what.nextUrl)) return;
  const message =
    what.field === 'apiKey'
      ? 'The base URL points to another host than the stored API key was entered for: enter the API key again for the new host, or remove it (apiKey: null).'
      : 'The URL points to another host than the stored headers were entered for: enter the headers again for the new host, or remove them (headers: {}).';
  throw new AppError(400, errorCodes.secretRequired, message, [{ path: [what.field], message }]);
}
