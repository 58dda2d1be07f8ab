import * as Sentry from '@sentry/react-native';
import { useMutation } from '@tanstack/react-query';
import { bff } from '../../lib/bff';

export function useCreateStandingOrder() {
  return useMutation({
    mutationFn: bff.standingOrders.create,
    onError: (err, vars) => {
      Sentry.captureException(err, { extra: { iban: vars.payeeIban, amountMinor: vars.amountMinor } });
    },
  });
}
