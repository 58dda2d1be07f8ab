import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bff } from '../../lib/bff';

export function parseAmountInput(input: string): number {
  const normalized = input.replace(/\./g, '').replace(',', '.');
  return Math.round(parseFloat(normalized) * 100);
}

export function useCreateTransfer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { payeeId: string; input: string; currency: string }) =>
      bff.transfers.create({ payeeId: v.payeeId, amountMinor: parseAmountInput(v.input), currency: v.currency }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['accounts'] }),
  });
}
