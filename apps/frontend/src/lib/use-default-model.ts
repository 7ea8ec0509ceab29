'use client';

import type { DefaultModel } from '@baton/schemas';
import { useEffect, useState } from 'react';
import { api } from './api-client';

// Which model is the default only changes when the backend restarts: ask once per page load.
let request: Promise<DefaultModel | null> | undefined;

function loadDefaultModel(): Promise<DefaultModel | null> {
  request ??= api.models().then(
    (info) => info.default,
    () => {
      request = undefined; // a failed look-up is tried again on the next page
      return null;
    },
  );
  return request;
}

/** The model that answers agents without a provider, or null while unknown. */
export function useDefaultModel(): DefaultModel | null {
  const [model, setModel] = useState<DefaultModel | null>(null);
  useEffect(() => {
    let current = true;
    void loadDefaultModel().then((m) => current && setModel(m));
    return () => {
      current = false;
    };
  }, []);
  return model;
}
