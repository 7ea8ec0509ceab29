'use client';

import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** How close to the bottom (px) still counts as "reading the latest". */
const NEAR_BOTTOM = 48;

/**
 * Keeps a scroll container pinned to its bottom while its content grows (a streaming
 * answer), until the user scrolls up; scrolling back down, or `scrollToBottom()`, pins it
 * again. Only an upward scroll unpins: content growing under a pinned view moves the
 * bottom away without moving scrollTop, which must not count as the user leaving.
 */
export function useStickToBottom(scroller: RefObject<HTMLElement | null>, content: RefObject<HTMLElement | null>) {
  const pinned = useRef(true);
  const lastTop = useRef(0);
  const [isAtBottom, setIsAtBottom] = useState(true);

  const scrollToBottom = useCallback(
    (behavior: ScrollBehavior = 'auto') => {
      const el = scroller.current;
      if (!el) return;
      pinned.current = true;
      setIsAtBottom(true);
      el.scrollTo({ top: el.scrollHeight, behavior });
    },
    [scroller],
  );

  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner) return;

    const onScroll = () => {
      const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
      if (distance <= NEAR_BOTTOM) pinned.current = true;
      else if (el.scrollTop < lastTop.current - 1) pinned.current = false;
      lastTop.current = el.scrollTop;
      setIsAtBottom(distance <= NEAR_BOTTOM);
    };
    const onGrow = () => {
      if (pinned.current) el.scrollTop = el.scrollHeight;
      else setIsAtBottom(el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_BOTTOM);
    };

    el.addEventListener('scroll', onScroll, { passive: true });
    const observer = new ResizeObserver(onGrow);
    observer.observe(inner);
    observer.observe(el);
    el.scrollTop = el.scrollHeight; // open a chat at its latest message
    return () => {
      el.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, [scroller, content]);

  return { isAtBottom, scrollToBottom };
}
