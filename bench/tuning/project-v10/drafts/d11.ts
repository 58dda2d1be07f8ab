// src/stores/basket.ts
import { invoke } from '@tauri-apps/api/core';

export async function completeSale(lines: BasketLine[], payment: Payment) {
  const totalPence = lines.reduce((s, l) => s + l.unitPricePence * l.qty, 0);
  const saleId = await invoke<string>('sale_commit', { lines, totalPence, payment });
  await fetch(`${API_BASE}/sales/batch`, { method: 'POST', body: JSON.stringify({ sales: [{ id: saleId, lines, totalPence }] }) });
  return saleId;
}
