import { format } from "date-fns";
import { es } from "date-fns/locale";

export function movementDate(d: Date, locale: string): string {
  return format(d, "d MMM", { locale: es });
}

export function amountLabel(amount: number): string {
  return `S/ ${amount.toFixed(2)}`;
}
