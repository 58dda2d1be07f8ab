export function formatBates(prefix: string, n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new Error(`invalid bates number ${n}`);
  return `${prefix}_${String(n).padStart(8, '0')}`;
}

export function batesRange(prefix: string, start: number, end: number): string {
  return `${formatBates(prefix, start)} – ${formatBates(prefix, end)}`;
}
