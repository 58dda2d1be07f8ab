import { useEffect, useRef } from "react";
import styles from "./DamagePopup.module.css";

type Props = {
  /** Damage as reported by the server's `resolved` event. */
  amount: number;
  crit: boolean;
  x: number;
  y: number;
  onDone: () => void;
};

// Purely cosmetic jitter so stacked popups don't overlap exactly.
// This never feeds back into game state, so it is fine to use Math.random here.
function jitter(): number {
  return (Math.random() - 0.5) * 12;
}

export function DamagePopup({ amount, crit, x, y, onDone }: Props) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const dx = jitter();
    const anim = el.animate(
      [
        { transform: `translate(${dx}px, 0) scale(1)`, opacity: 1 },
        { transform: `translate(${dx}px, -28px) scale(${crit ? 1.4 : 1.1})`, opacity: 0 },
      ],
      { duration: 700, easing: "cubic-bezier(.2,.8,.3,1)" },
    );
    anim.onfinish = onDone;
    return () => anim.cancel();
  }, [crit, onDone]);

  if (amount <= 0) return null;

  const className = crit ? `${styles.popup} ${styles.crit}` : styles.popup;
  return (
    <div ref={ref} className={className} style={{ left: x, top: y }}>
      {amount}
    </div>
  );
}
