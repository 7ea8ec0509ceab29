/** A dynamic route segment as text (segments may arrive percent-encoded). */
export function routeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
