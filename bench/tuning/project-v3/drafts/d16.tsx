import React from "react";
import { Text, View, Pressable } from "react-native";
import { formatPEN } from "../money";

export function BalanceCard({ balanceCents, onRefresh }: { balanceCents: number; onRefresh: () => void }) {
  return (
    <View style={styles.card}>
      <Text style={styles.label}>Saldo disponible</Text>
      <Text style={styles.amount} allowFontScaling={false}>{formatPEN(balanceCents)}</Text>
      <Pressable onPress={onRefresh} style={{ width: 32, height: 32 }} accessibilityRole="button">
        <RefreshIcon />
      </Pressable>
    </View>
  );
}
