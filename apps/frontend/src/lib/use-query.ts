'use client';

import { useCallback, useEffect, useRef, useState } from 'react';

export interface QueryState<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** Fetches again; the current data stays visible meanwhile. */
  reload: () => Promise<void>;
  /** Replaces the data locally, e.g. with what a successful save returned. */
  setData: (update: T | ((current: T | undefined) => T)) => void;
}

/**
 * Loads data for a client component and re-loads when `key` changes. Answers for an
 * outdated key are dropped, so fast navigation never shows another page's data.
 */
export function useQuery<T>(key: string, fetcher: () => Promise<T>): QueryState<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(true);
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const generation = useRef(0);

  const load = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const value = await fetcherRef.current();
      if (mine !== generation.current) return;
      setData(value);
      setError(undefined);
    } catch (err) {
      if (mine !== generation.current) return;
      setError(err as Error);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new key is what makes it load again.
  useEffect(() => {
    setData(undefined);
    void load();
  }, [key, load]);

  return { data, error, loading, reload: load, setData };
}
