import { View, Text, StyleSheet } from "react-native";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { http } from "../../../api/http";
import { useAccountSelection } from "../../../stores/accountSelection";
import { useTokens } from "../../../theme/useTokens";

type MonthSpend = { currency: string; outgoingMinor: number; incomingMinor: number };

export function MonthSummary() {
  const { t } = useTranslation();
  const tokens = useTokens();
  const accountId = useAccountSelection((s) => s.accountId);
  const { data } = useQuery({
    queryKey: ["month-spend", accountId],
    queryFn: () => http.get<MonthSpend>(`/bff/v1/accounts/${accountId}/spend/month`).then((r) => r.data),
    enabled: !!accountId,
  });

  if (!data) return null;

  const spent = (data.outgoingMinor / 100).toFixed(2);
  const ratio = data.incomingMinor > 0 ? data.outgoingMinor / data.incomingMinor : 0;

  return (
    <View style={[styles.card, { backgroundColor: tokens.colors.surface }]}>
      <Text style={[styles.label, { color: tokens.colors.textSecondary }]}>Spent this month</Text>
      <Text style={[styles.amount, { color: tokens.colors.textPrimary }]}>
        {spent} {data.currency}
      </Text>
      <View style={[styles.bar, { backgroundColor: tokens.colors.surfaceMuted }]}>
        <View style={[styles.fill, { width: `${Math.min(ratio, 1) * 100}%`, backgroundColor: "#D64545" }]} />
      </View>
    </View>
  );
}

const styles = StyleSheet.create({
  card: { borderRadius: 16, padding: 16, marginHorizontal: 16, marginTop: 12 },
  label: { fontSize: 13 },
  amount: { fontSize: 28, fontWeight: "600", marginTop: 4 },
  bar: { height: 6, borderRadius: 3, marginTop: 12, overflow: "hidden" },
  fill: { height: 6 },
});
