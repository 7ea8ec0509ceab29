'use client';

import { ImageOff } from 'lucide-react';
import { type ComponentProps, type MouseEvent, useState } from 'react';
import { isAllowedImageUrl } from '@/lib/image-hosts';
import { useImagePolicy } from './image-policy';

type ImgProps = ComponentProps<'img'> & { node?: unknown };

/** The http(s) URL of a markdown image, or undefined (relative, or another scheme). */
function remoteUrl(src: unknown): URL | undefined {
  if (typeof src !== 'string') return undefined;
  try {
    const url = new URL(src);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A markdown image from model output. Loading it is a request to the host its URL names,
 * carrying whatever the URL says — a prompt-injected model can write the conversation into
 * it — so it is shown at once only when the operator allow-listed its host (BATON_IMAGE_HOSTS)
 * and it is the model's own answer. Anything else (another host, a sub-agent's or a tool's
 * output) is a placeholder naming the host, with a Load image button. A clicked image from a
 * host that is not on the list comes through the backend (`/api/image`): the page's
 * Content-Security-Policy lets it load images from its own origin and the list only, and
 * the host then sees Baton's server rather than the person's browser.
 */
export function RemoteImage({ node: _node, src, alt, title }: ImgProps) {
  const { hosts, quoted } = useImagePolicy();
  const [state, setState] = useState<'waiting' | 'loading' | 'failed'>('waiting');
  const url = remoteUrl(src);
  const label = alt?.trim() || 'Image';
  // Relative and other URLs would be requests to Baton itself or nothing at all: never loaded.
  if (!url) return <span className="markdown-image-text">[{label}]</span>;
  const listed = isAllowedImageUrl(url.href, hosts);

  if ((listed && !quoted) || state === 'loading') {
    return (
      // biome-ignore lint/performance/noImgElement: model output, not an asset next/image could size
      <img
        src={listed ? url.href : `/api/image?url=${encodeURIComponent(url.href)}`}
        alt={alt ?? ''}
        title={title}
        referrerPolicy="no-referrer"
        loading="lazy"
        onError={() => setState('failed')}
      />
    );
  }

  const load = (event: MouseEvent) => {
    // The image may sit inside a link: the click loads it, it does not follow the link.
    event.preventDefault();
    event.stopPropagation();
    setState('loading');
  };
  return (
    <span role="group" aria-label={`Image not loaded: ${label}, from ${url.host}`} className="markdown-image-placeholder">
      <ImageOff aria-hidden className="size-4 shrink-0" />
      <span className="min-w-0">
        <span className="font-medium">{label}</span> <span className="markdown-image-host">from {url.host}</span>
        {state === 'failed' && <span className="block text-xs">The image could not be loaded.</span>}
      </span>
      <button type="button" onClick={load} className="markdown-image-load">
        {state === 'failed' ? 'Try again' : 'Load image'}
      </button>
    </span>
  );
}
