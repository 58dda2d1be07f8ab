// src/lib/analytics.ts -- thin wrapper around the Plausible script tag.
// Only ids and counts go in here. The buyer's e-mail and name stay out of
// analytics completely; support looks orders up by orderId.

type Props = Record<string, string | number | boolean>;

declare global {
  interface Window {
    plausible?: ((event: string, options?: { props?: Props; callback?: () => void }) => void) & { q?: unknown[] };
  }
}

function send(event: string, props: Props = {}) {
  if (typeof window === 'undefined') return;
  window.plausible ??= Object.assign((...args: unknown[]) => (window.plausible!.q ??= []).push(args), {});
  window.plausible(event, { props });
}

export function trackCheckoutStarted(eventSlug: string, ticketCount: number) {
  send('Checkout Started', { event: eventSlug, tickets: ticketCount });
}

export function trackCheckoutCompleted(orderId: string, ticketCount: number, totalCents: number) {
  send('Checkout Completed', { orderId, tickets: ticketCount, revenueBand: band(totalCents) });
}

export function trackSeatMapOpened(eventSlug: string) {
  send('Seat Map Opened', { event: eventSlug });
}

// server-side fallback for when the script is blocked: same payload, via fetch
export async function trackServerSide(fetchFn: typeof fetch, event: string, url: string, props: Props) {
  await fetchFn('https://plausible.stubline.example/api/event', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: event, url, domain: 'tickets.stubline.example', props })
  });
}

function band(cents: number): string {
  if (cents < 2_500) return '<25';
  if (cents < 10_000) return '25-100';
  return '100+';
}
