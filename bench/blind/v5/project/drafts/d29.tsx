import { useEffect } from "react";
import { View, Text, Pressable, StyleSheet } from "react-native";
import { usePreventScreenCapture } from "expo-screen-capture";
import { useTranslation } from "react-i18next";
import { useCardDetails } from "../../hooks/useCardDetails";
import { useRevealCvv } from "../../hooks/useRevealCvv";
import { useTokens } from "../../theme/useTokens";
import { formatMoney } from "../../lib/money";

export function CardDetailsScreen({ route }: { route: { params: { cardId: string } } }) {
  usePreventScreenCapture();
  const { t } = useTranslation();
  const tokens = useTokens();
  const { data: card } = useCardDetails(route.params.cardId);
  const cvv = useRevealCvv(route.params.cardId);

  useEffect(() => {
    if (!cvv.value) return;
    const timer = setTimeout(cvv.hide, 30_000);
    return () => clearTimeout(timer);
  }, [cvv.value, cvv.hide]);

  if (!card) return null;

  return (
    <View style={[styles.screen, { backgroundColor: tokens.colors.background }]}>
      <Text style={[styles.pan, { color: tokens.colors.textPrimary }]}>{card.panFormatted}</Text>
      <Text style={{ color: tokens.colors.textSecondary }}>
        {t("cards.details.limit", { amount: formatMoney(card.limitMinor, card.currency) })}
      </Text>
      <Pressable
        accessibilityRole="button"
        accessibilityLabel={t("cards.details.showCvv")}
        onPress={cvv.reveal}
        style={[styles.cvv, { borderColor: tokens.colors.border }]}
      >
        <Text style={{ color: tokens.colors.textPrimary }}>
          {cvv.value ?? t("cards.details.cvvHidden")}
        </Text>
      </Pressable>
    </View>
  );
}

const styles = StyleSheet.create({
  screen: { flex: 1, padding: 24 },
  pan: { fontSize: 22, letterSpacing: 2, marginBottom: 8 },
  cvv: { marginTop: 24, borderWidth: 1, borderRadius: 12, padding: 16, alignItems: "center" },
});
