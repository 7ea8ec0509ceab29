/** The constraint a unique violation is about (the driver's error, as drizzle wraps it), else undefined. */
export function violatedUniqueConstraint(err: unknown): string | undefined {
  const e = ((err as { cause?: unknown })?.cause ?? err) as { code?: string; constraint?: string } | undefined;
  return e?.code === '23505' ? e.constraint : undefined;
}
