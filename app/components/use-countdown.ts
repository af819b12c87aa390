import { useEffect, useState } from 'react';

/**
 * Seconds left of a wait the server named (a resend cooldown), counting down live with JS. A new `restart`
 * value (a new server answer) starts again from `seconds`. Without JS it stays at `seconds`, which the page
 * says in words; the server refuses early requests either way.
 */
export function useCountdown(seconds: number, restart?: unknown) {
  const [remaining, setRemaining] = useState(seconds);
  useEffect(() => {
    setRemaining(seconds);
    if (seconds <= 0) return;
    const started = Date.now();
    const timer = window.setInterval(() => {
      const left = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setRemaining(left);
      if (left === 0) window.clearInterval(timer);
    }, 250);
    return () => window.clearInterval(timer);
  }, [seconds, restart]);
  return remaining;
}
