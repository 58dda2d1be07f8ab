import { tokens } from '@bramble/design-tokens';
import { useQuery } from '@tanstack/react-query';
import { Text, View } from 'react-native';
import { bff } from '../../lib/bff';
import { formatMoney } from '../../lib/money';

export function SpendingSummary({ accountId }: { accountId: string }) {
  const { data } = useQuery({
    queryKey: ['transactions', accountId, 'month'],
    queryFn: () => bff.transactions.list({ accountId, range: 'month' }),
  });
  if (!data) return null;
  const totalMinor = data.items.reduce((sum, t) => sum + t.amountMinor, 0);
  return (
    <View testID="spending-summary" style={{ padding: tokens.space.md, backgroundColor: tokens.color.bgSurface }}>
      <Text>{formatMoney(totalMinor, data.currency)}</Text>
    </View>
  );
}
