import React, { useMemo, useState } from "react";
import { createRoot } from "react-dom/client";

type Item = { id: number; name: string; unit: string; priceCents: number; maxQty: number };

type Props = {
  boxId: number;
  items: Item[];
  initial: Record<number, number>;
  budgetCents: number;
  csrfToken: string;
};

const euros = (cents: number) =>
  new Intl.NumberFormat("nl-NL", { style: "currency", currency: "EUR" }).format(cents / 100);

export function BoxEditor({ boxId, items, initial, budgetCents, csrfToken }: Props) {
  const [qty, setQty] = useState<Record<number, number>>(initial);
  const [saving, setSaving] = useState(false);

  const totalCents = useMemo(
    () => items.reduce((sum, item) => sum + (qty[item.id] ?? 0) * item.priceCents, 0),
    [items, qty],
  );

  async function save() {
    setSaving(true);
    try {
      await fetch(`/boxes/${boxId}/contents`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken },
        body: JSON.stringify({ contents: qty }),
      });
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="box-editor">
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <span>{item.name} ({item.unit})</span>
            <input
              type="number"
              min={0}
              max={item.maxQty}
              value={qty[item.id] ?? 0}
              onChange={(e) => setQty({ ...qty, [item.id]: Number(e.target.value) })}
            />
            <span>{euros(item.priceCents)}</span>
          </li>
        ))}
      </ul>
      <p className={totalCents > budgetCents ? "over-budget" : undefined}>
        Total {euros(totalCents)} of {euros(budgetCents)}
      </p>
      <button onClick={save} disabled={saving || totalCents > budgetCents}>Save box</button>
    </div>
  );
}

document.querySelectorAll<HTMLElement>("[data-box-editor]").forEach((el) => {
  createRoot(el).render(<BoxEditor {...JSON.parse(el.dataset.boxEditor!)} />);
});
