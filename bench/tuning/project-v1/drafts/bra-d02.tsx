import { useEffect, useState } from 'react';
import { Text, View } from 'react-native';
import { useSelector } from 'react-redux';

export function StandingOrdersScreen() {
  const token = useSelector((s: RootState) => s.auth.coreToken);
  const [orders, setOrders] = useState<StandingOrder[]>([]);

  useEffect(() => {
    fetch('https://core.bramble-internal.net/v3/standing-orders', { headers: { authorization: `Bearer ${token}` } })
      .then(r => r.json())
      .then(setOrders);
  }, [token]);

  return (
    <View style={{ padding: 12, backgroundColor: '#FFFFFF' }}>
      {orders.map(o => (
        <Text key={o.id}>{o.payeeName}: €{(o.amount / 100).toFixed(2)}</Text>
      ))}
    </View>
  );
}
