import { useEffect, useState } from 'react';
import { demoApi, type ReceivedEvent } from './demo-api.js';

/** How often the page asks its backend for new webhook events. */
const POLL_MS = 1000;

export interface DocumentEvents {
  /** Oldest first; `null` until the first answer. */
  events: ReceivedEvent[] | null;
  /** The last poll failed (the next one is still made). */
  failed: boolean;
}

/** The webhook events the demo's backend has received about `documentId`, asked for every second while it is open. */
export function useDocumentEvents(documentId: string): DocumentEvents {
  const [state, setState] = useState<DocumentEvents>({ events: null, failed: false });

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ events: null, failed: false });
    const poll = async () => {
      try {
        const next = await demoApi.events(documentId, controller.signal);
        // The inbox only grows (until it drops its oldest), so the same count and last id mean nothing new.
        setState((current) =>
          !current.failed && current.events?.length === next.length && current.events.at(-1)?.id === next.at(-1)?.id
            ? current
            : { events: next, failed: false },
        );
      } catch {
        if (controller.signal.aborted) return;
        setState((current) => (current.failed ? current : { ...current, failed: true }));
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [documentId]);

  return state;
}
