"use client";
import { useEffect, useState } from "react";
import Image from "next/image";

// Goes through search-api (never OpenSearch directly).
const SUGGEST_URL = "/api/search/suggest";
const DEBOUNCE_MS = 150;

type Suggestion = { id: string; title: string; thumbnailUrl: string };

export function Autocomplete() {
  const [q, setQ] = useState("");
  const [items, setItems] = useState<Suggestion[]>([]);

  useEffect(() => {
    if (q.length < 2) return setItems([]);
    const t = setTimeout(async () => {
      const res = await fetch(`${SUGGEST_URL}?q=${encodeURIComponent(q)}`);
      if (res.ok) setItems(await res.json());
    }, DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [q]);

  return (
    <div className="autocomplete">
      <input value={q} onChange={(e) => setQ(e.target.value)} placeholder="Search products" />
      <ul>
        {items.map((s) => (
          <li key={s.id}>
            <Image src={s.thumbnailUrl} alt="" width={40} height={40} />
            {s.title}
          </li>
        ))}
      </ul>
    </div>
  );
}
